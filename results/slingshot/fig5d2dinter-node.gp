set terminal svg size 900,600 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/fig5d2dinter-node.svg.tmp'
set datafile separator ','
set key top left reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set logscale y
set grid
set xtics ("1 B" 1, "4 B" 4, "16 B" 16, "64 B" 64, "256 B" 256, "1 KiB" 1024, "4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, "4 MiB" 4194304, "16 MiB" 16777216, "64 MiB" 67108864, "256 MiB" 268435456, "1 GiB" 1073741824)
set format y '%g'
set title "slingshot-ex, Fig. 5 D2D inter-node: osu_latency, D2D, 2 ranks on 2 Crusher nodes (map-by\nppr:1:node), Cray MPICH 8.1.23 (CXI, hardware matching; own shared memory and GPU IPC)"
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'slingshot/fig5_latency_inter_d2d_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'native osu_latency 2p (simulated)', \
  'slingshot/fig5d2dinter-node.fig5_latency_inter_d2d_native.ref.dat' using 1:2 with points lc 1 pt 7 ps 1.6 title 'native osu_latency 2p (paper)', \
  'slingshot/fig5_latency_inter_d2d_openmpi-cxi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi-cxi osu_latency 2p (simulated)', \
  'slingshot/fig5_latency_inter_d2d_openmpi-linkx.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 dt 3 pt 4 ps 0.7 title 'openmpi-linkx osu_latency 2p (simulated)'
