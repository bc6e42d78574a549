set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'slingshot/fig6h2hintra-node.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'slingshot-ex, Fig. 6 H2H intra-node: osu_mbw_mr, H2H, 8 ranks on one Crusher node, one per L3 (map-by ppr:1:l3cache, bind-to core; pairs i, i+4), Cray MPICH 8.1.23 (CXI, hardware matching; own shared memory and GPU IPC)'
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
plot 'slingshot/fig6_mbw_mr_intra_h2h_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 1 pt 1 ps 0.6 title 'native osu_mbw_mr 8p (simulated)', \
  'slingshot/fig6h2hintra-node.fig6_mbw_mr_intra_h2h_native.ref.dat' using 1:2 with points lc 1 pt 7 ps 1.6 title 'native osu_mbw_mr 8p (paper)', \
  'slingshot/fig6_mbw_mr_intra_h2h_openmpi-cxi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi-cxi osu_mbw_mr 8p (simulated)', \
  'slingshot/fig6_mbw_mr_intra_h2h_openmpi-linkx.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 3 pt 1 ps 0.6 title 'openmpi-linkx osu_mbw_mr 8p (simulated)'
