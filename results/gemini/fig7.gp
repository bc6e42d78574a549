set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output '/work/main/results/gemini/fig7.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set title 'gemini/fig7'
set xlabel 'processes'
set ylabel 'latency (us)'
plot '/work/main/results/gemini/fig7_barrier_cheetah_atomic.csv' using (column('ranks')):(column('latency_us')) with linespoints title 'openmpi cheetah-atomic', \
  '/work/main/results/gemini/fig7.fig7_barrier_cheetah_atomic.ref.dat' using 1:2 with points pt 7 ps 1.5 title 'paper: openmpi cheetah-atomic', \
  '/work/main/results/gemini/fig7_barrier_cheetah_p2p.csv' using (column('ranks')):(column('latency_us')) with linespoints title 'openmpi cheetah-p2p'
