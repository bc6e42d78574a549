set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output '/work/main/results/gemini/fig6.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set title 'gemini/fig6'
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
plot '/work/main/results/gemini/fig6_bibw_2p_inter_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints title 'native osu_bibw 2p', \
  '/work/main/results/gemini/fig6.fig6_bibw_2p_inter_native.ref.dat' using 1:2 with points pt 7 ps 1.5 title 'paper: native osu_bibw 2p', \
  '/work/main/results/gemini/fig6_bibw_2p_inter_openmpi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints title 'openmpi osu_bibw 2p', \
  '/work/main/results/gemini/fig6.fig6_bibw_2p_inter_openmpi.ref.dat' using 1:2 with points pt 7 ps 1.5 title 'paper: openmpi osu_bibw 2p', \
  '/work/main/results/gemini/fig6_mbw_mr_8p_inter_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints title 'native osu_mbw_mr 8p', \
  '/work/main/results/gemini/fig6_mbw_mr_8p_inter_openmpi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints title 'openmpi osu_mbw_mr 8p'
