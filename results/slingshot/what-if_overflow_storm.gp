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
set title 'slingshot-ex, What-if overflow storm'
set xlabel 'message size (bytes)'
set ylabel 'time to send completion (us)'
set bmargin 6
set label 100 'unexpected_storm: 127 ranks (16 Crusher nodes x 8, map-by ppr:1:l3cache) each send 8 messages to rank 0 at once, rank 0 posts its receives only then;' at screen 0.012, screen 0.0382 left front font ',9'
set label 101 'Open MPI pml/cm + mtl/ofi over cxi (hardware matching)' at screen 0.012, screen 0.0159 left front font ',9'
set yrange [24.3116 : 281.386]
set ytics ("30" 30, "40" 40, "50" 50, "70" 70, "100" 100, "150" 150, "200" 200)
set terminal svg size 900,628 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/what-if_overflow_storm.svg.tmp'
plot 'slingshot/whatif_oflow_1x2MiB_storm_128p_openmpi-cxi.csv' using (column('bytes')):(column('send_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi-cxi unexpected_storm 128p on crusher-oflow1 (simulated)', \
  'slingshot/whatif_oflow_3x2MiB_storm_128p_openmpi-cxi.csv' using (column('bytes')):(column('send_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi-cxi unexpected_storm 128p on crusher (simulated)'
