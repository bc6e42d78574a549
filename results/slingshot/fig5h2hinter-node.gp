set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'slingshot/fig5h2hinter-node.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'slingshot-ex, Fig. 5 H2H inter-node: osu_latency, H2H, 2 ranks on 2 Crusher nodes (map-by ppr:1:node), Cray MPICH 8.1.23 (CXI, hardware matching; own shared memory and GPU IPC)'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'slingshot/fig5_latency_inter_h2h_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 pt 1 ps 0.6 title 'native osu_latency 2p (simulated)', \
  'slingshot/fig5h2hinter-node.fig5_latency_inter_h2h_native.ref.dat' using 1:2 with points lc 1 pt 7 ps 1.6 title 'native osu_latency 2p (paper)', \
  'slingshot/fig5_latency_inter_h2h_openmpi-cxi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi-cxi osu_latency 2p (simulated)', \
  'slingshot/fig5_latency_inter_h2h_openmpi-linkx.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 pt 1 ps 0.6 title 'openmpi-linkx osu_latency 2p (simulated)'
