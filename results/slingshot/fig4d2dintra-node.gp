set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'slingshot/fig4d2dintra-node.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'slingshot-ex, Fig. 4 D2D intra-node: osu_bibw, D2D, 2 ranks on one Crusher node, one per L3 (map-by ppr:1:l3cache, bind-to core), Cray MPICH 8.1.23 (CXI, hardware matching; own shared memory and GPU IPC)'
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
plot 'slingshot/fig4_bibw_intra_d2d_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 1 pt 1 ps 0.6 title 'native osu_bibw 2p (simulated)', \
  'slingshot/fig4_bibw_intra_d2d_openmpi-cxi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi-cxi osu_bibw 2p (simulated)', \
  'slingshot/fig4_bibw_intra_d2d_openmpi-linkx.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 3 pt 1 ps 0.6 title 'openmpi-linkx osu_bibw 2p (simulated)'
