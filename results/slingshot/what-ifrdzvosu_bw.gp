set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'slingshot/what-ifrdzvosu_bw.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'slingshot-ex, What-if rdzv osu_bw: osu_bw, H2H inter-node, 2 Crusher nodes, Open MPI pml/cm + mtl/ofi over cxi, CXI rendezvous threshold 16 KiB (libfabric 2.x)'
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
plot 'slingshot/whatif_rdzv_16k_osu_bw_inter_h2h_openmpi-cxi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 1 pt 1 ps 0.6 title 'openmpi-cxi osu_bw 2p on crusher-libfabric2 (simulated)', \
  'slingshot/whatif_rdzv_2k_osu_bw_inter_h2h_openmpi-cxi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi-cxi osu_bw 2p on crusher (simulated)'
