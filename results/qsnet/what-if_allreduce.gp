set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key at screen 0.012, screen 0.1317 left top reverse Left box opaque font ',9' spacing 0.9 maxrows 6
set logscale x 2
set logscale y
set grid
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set xtics ("1 B" 1, "2 B" 2, "4 B" 4, "8 B" 8, "16 B" 16, "32 B" 32, "64 B" 64, "128 B" 128, "256 B" 256, "512 B" 512, "1 KiB" 1024, "2 KiB" 2048, "4 KiB" 4096, "8 KiB" 8192, "16 KiB" 16384, "32 KiB" 32768, "64 KiB" 65536, "128 KiB" 131072, "256 KiB" 262144, "512 KiB" 524288, "1 MiB" 1048576, "2 MiB" 2097152, "4 MiB" 4194304, "8 MiB" 8388608, "16 MiB" 16777216, "32 MiB" 33554432, "64 MiB" 67108864, "128 MiB" 134217728, "256 MiB" 268435456, "512 MiB" 536870912, "1 GiB" 1073741824)
set format y '%g'
set title 'qsnet-elan4, What-if allreduce: MPI_Allreduce'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
set bmargin 10
set yrange [23.8642 : 111.23]
set ytics ("30" 30, "40" 40, "50" 50, "70" 70, "100" 100)
set terminal svg size 900,691 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'qsnet/what-if_allreduce.svg.tmp'
plot 'qsnet/whatif_allreduce_4096_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'native osu_allreduce recursive_doubling 4096p on whatif-qsnet-4096 (simulated)', \
  'qsnet/whatif_allreduce_4096_openmpi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi-elan4 osu_allreduce recursive_doubling 4096p on whatif-qsnet-4096 (simulated)', \
  'qsnet/whatif_allreduce_512_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 dt 3 pt 4 ps 0.7 title 'native osu_allreduce recursive_doubling 512p on whatif-qsnet-512 (simulated)', \
  'qsnet/whatif_allreduce_512_openmpi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 4 dt 4 pt 6 ps 0.7 title 'openmpi-elan4 osu_allreduce recursive_doubling 512p on whatif-qsnet-512 (simulated)', \
  'qsnet/whatif_allreduce_64_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 5 dt 5 pt 8 ps 0.7 title 'native osu_allreduce recursive_doubling 64p on whatif-qsnet-64 (simulated)', \
  'qsnet/whatif_allreduce_64_openmpi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 6 dt 1 pt 10 ps 0.7 title 'openmpi-elan4 osu_allreduce recursive_doubling 64p on whatif-qsnet-64 (simulated)'
