set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'slingshot/fig5d2dintra-node.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'slingshot-ex, Fig. 5 D2D intra-node: osu_latency, D2D, 2 ranks on one Crusher node, one per L3 (map-by ppr:1:l3cache, bind-to core), Cray MPICH 8.1.23 (CXI, hardware matching; own shared memory and GPU IPC)'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'slingshot/fig5_latency_intra_d2d_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 pt 1 ps 0.6 title 'native osu_latency 2p (simulated)', \
  'slingshot/fig5_latency_intra_d2d_openmpi-cxi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi-cxi osu_latency 2p (simulated)', \
  'slingshot/fig5_latency_intra_d2d_openmpi-linkx.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 pt 1 ps 0.6 title 'openmpi-linkx osu_latency 2p (simulated)'
