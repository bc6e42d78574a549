set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key top left reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set logscale y
set grid
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set xtics ("1 B" 1, "2 B" 2, "4 B" 4, "8 B" 8, "16 B" 16, "32 B" 32, "64 B" 64, "128 B" 128, "256 B" 256, "512 B" 512, "1 KiB" 1024, "2 KiB" 2048, "4 KiB" 4096, "8 KiB" 8192, "16 KiB" 16384, "32 KiB" 32768, "64 KiB" 65536, "128 KiB" 131072, "256 KiB" 262144, "512 KiB" 524288, "1 MiB" 1048576, "2 MiB" 2097152, "4 MiB" 4194304, "8 MiB" 8388608, "16 MiB" 16777216, "32 MiB" 33554432, "64 MiB" 67108864, "128 MiB" 134217728, "256 MiB" 268435456, "512 MiB" 536870912, "1 GiB" 1073741824)
set format y '%g'
set title 'slingshot-ex, What-if rdzv osu_bw: osu_bw, H2H inter-node, 2 Crusher nodes, Open MPI pml/cm +'."\n".'mtl/ofi over cxi'
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
set bmargin 5
set label 100 'Curves "crusher-libfabric2" and "crusher" coincide (within 1.8 % at every point; each later one drawn with a larger marker).' at screen 0.012, screen 0.0163 left front font ',9'
set yrange [1.79482 : 25.7532]
set ytics ("2" 2, "3" 3, "4" 4, "5" 5, "7" 7, "10" 10, "15" 15, "20" 20)
set terminal svg size 900,614 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/what-if_rdzv_osu_bw.svg.tmp'
plot 'slingshot/whatif_rdzv_16k_osu_bw_inter_h2h_openmpi-cxi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi-cxi osu_bw 2p on crusher-libfabric2 (simulated)', \
  'slingshot/whatif_rdzv_2k_osu_bw_inter_h2h_openmpi-cxi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 2 dt 2 pt 2 ps 1.3 title 'openmpi-cxi osu_bw 2p on crusher (simulated)'
