set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'gemini/fig3.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'gemini-xe-xk, Fig. 3: osu_latency, 2 ranks on one Cielo node'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'gemini/fig3_latency_2p_intra_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 pt 1 ps 0.6 title 'native osu_latency 2p (simulated)', \
  'gemini/fig3.fig3_latency_2p_intra_native.ref.dat' using 1:2 with points lc 1 pt 7 ps 1.6 title 'native osu_latency 2p (paper)', \
  'gemini/fig3.fig3_latency_2p_intra_native.interval.dat' using 1:2:3:4 with yerrorbars lc 1 pt 6 ps 1.2 title 'native osu_latency 2p (prediction interval)', \
  'gemini/fig3_latency_2p_intra_openmpi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi osu_latency 2p (simulated)', \
  'gemini/fig3.fig3_latency_2p_intra_openmpi.ref.dat' using 1:2 with points lc 2 pt 7 ps 1.6 title 'openmpi osu_latency 2p (paper)', \
  'gemini/fig3_multi_lat_16p_intra_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 pt 1 ps 0.6 title 'native osu_multi_lat 16p (simulated)', \
  'gemini/fig3.fig3_multi_lat_16p_intra_native.interval.dat' using 1:2:3:4 with yerrorbars lc 3 pt 6 ps 1.2 title 'native osu_multi_lat 16p (prediction interval)', \
  'gemini/fig3_multi_lat_16p_intra_openmpi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 4 pt 1 ps 0.6 title 'openmpi osu_multi_lat 16p (simulated)', \
  'gemini/fig3.fig3_multi_lat_16p_intra_openmpi.interval.dat' using 1:2:3:4 with yerrorbars lc 4 pt 6 ps 1.2 title 'openmpi osu_multi_lat 16p (prediction interval)'
