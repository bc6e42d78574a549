set terminal svg size 900,600 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'gemini/fig7.svg.tmp'
set datafile separator ','
set key top left reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set logscale y
set grid
set format x '%.0f'
set format y '%g'
set title "gemini-xe-xk, Fig. 7: MPI_Barrier loop, one rank per Cielo node, Cheetah atomic barrier (radix\n4)"
set xlabel 'processes'
set ylabel 'latency (us)'
plot 'gemini/fig7_barrier_cheetah_atomic.csv' using (column('ranks')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi cheetah-atomic (simulated)', \
  'gemini/fig7.fig7_barrier_cheetah_atomic.ref.dat' using 1:2 with points lc 1 pt 7 ps 1.6 title 'openmpi cheetah-atomic (paper)', \
  'gemini/fig7_barrier_cheetah_p2p.csv' using (column('ranks')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi cheetah-p2p (simulated)', \
  'gemini/fig7.fig7_barrier_cheetah_p2p.interval.dat' using 1:2:3:4 with yerrorbars lc 2 pt 6 ps 1.2 title 'openmpi cheetah-p2p (prediction interval: range over the sampled parameters)'
