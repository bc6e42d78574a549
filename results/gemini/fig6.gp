set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'gemini/fig6.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'gemini-xe-xk, Fig. 6: osu_bibw, 2 ranks on 2 Cielo nodes'
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
plot 'gemini/fig6_bibw_2p_inter_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 1 pt 1 ps 0.6 title 'native osu_bibw 2p (simulated)', \
  'gemini/fig6.fig6_bibw_2p_inter_native.ref.dat' using 1:2 with points lc 1 pt 7 ps 1.6 title 'native osu_bibw 2p (paper)', \
  'gemini/fig6.fig6_bibw_2p_inter_native.interval.dat' using 1:2:3:4 with yerrorbars lc 1 pt 6 ps 1.2 title 'native osu_bibw 2p (prediction interval)', \
  'gemini/fig6_bibw_2p_inter_openmpi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi osu_bibw 2p (simulated)', \
  'gemini/fig6.fig6_bibw_2p_inter_openmpi.ref.dat' using 1:2 with points lc 2 pt 7 ps 1.6 title 'openmpi osu_bibw 2p (paper)', \
  'gemini/fig6_mbw_mr_8p_inter_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 3 pt 1 ps 0.6 title 'native osu_mbw_mr 8p (simulated)', \
  'gemini/fig6_mbw_mr_8p_inter_openmpi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 4 pt 1 ps 0.6 title 'openmpi osu_mbw_mr 8p (simulated)'
