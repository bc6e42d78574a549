set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'gemini/fig5.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'gemini-xe-xk, Fig. 5: osu_latency, 2 ranks on 2 Cielo nodes (one rank per node)'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'gemini/fig5_latency_2p_inter_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 pt 1 ps 0.6 title 'native osu_latency 2p (simulated)', \
  'gemini/fig5.fig5_latency_2p_inter_native.ref.dat' using 1:2 with points lc 1 pt 7 ps 1.6 title 'native osu_latency 2p (paper)', \
  'gemini/fig5_latency_2p_inter_openmpi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi osu_latency 2p (simulated)', \
  'gemini/fig5.fig5_latency_2p_inter_openmpi.ref.dat' using 1:2 with points lc 2 pt 7 ps 1.6 title 'openmpi osu_latency 2p (paper)', \
  'gemini/fig5_multi_lat_8p_inter_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 pt 1 ps 0.6 title 'native osu_multi_lat 8p (simulated)', \
  'gemini/fig5.fig5_multi_lat_8p_inter_native.interval.dat' using 1:2:3:4 with yerrorbars lc 3 pt 6 ps 1.2 title 'native osu_multi_lat 8p (prediction interval)', \
  'gemini/fig5_multi_lat_8p_inter_openmpi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 4 pt 1 ps 0.6 title 'openmpi osu_multi_lat 8p (simulated)', \
  'gemini/fig5.fig5_multi_lat_8p_inter_openmpi.interval.dat' using 1:2:3:4 with yerrorbars lc 4 pt 6 ps 1.2 title 'openmpi osu_multi_lat 8p (prediction interval)'
