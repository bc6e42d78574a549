set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key top left reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set logscale y
set grid
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set xtics ("1 B" 1, "4 B" 4, "16 B" 16, "64 B" 64, "256 B" 256, "1 KiB" 1024, "4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, "4 MiB" 4194304, "16 MiB" 16777216, "64 MiB" 67108864, "256 MiB" 268435456, "1 GiB" 1073741824)
set format y '%g'
set title 'slingshot-ex, What-if Frontier allreduce, each library''s own choice: osu_allreduce 8 B to 1 MiB'."\n".'with the library''s own algorithm selection'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
set bmargin 8
set label 100 'Latency falls with message size: native osu_allreduce mpich: 8 B 24.93 us -> 1 KiB 22.79 us (a protocol or algorithm switch of the model; validation/notes.md, "Latency that falls with' at screen 0.012, screen 0.0793 left front font ',9'
set label 101 'message size").' at screen 0.012, screen 0.0579 left front font ',9'
set label 102 'Latency falls with message size: openmpi-linkx osu_allreduce tuned: 8 B 63.45 us -> 1 KiB 33.66 us (a protocol or algorithm switch of the model; validation/notes.md, "Latency that falls' at screen 0.012, screen 0.0366 left front font ',9'
set label 103 'with message size").' at screen 0.012, screen 0.0152 left front font ',9'
set yrange [9.32489 : 744.709]
set ytics ("10" 10, "20" 20, "30" 30, "50" 50, "100" 100, "200" 200, "300" 300, "500" 500)
set terminal svg size 900,656 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/what-if_frontier_allreduce_each_librarys_own_choice.svg.tmp'
plot 'slingshot/whatif_frontier_allreduce_defaults_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'native osu_allreduce mpich (simulated)', \
  'slingshot/whatif_frontier_allreduce_defaults_openmpi-linkx.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi-linkx osu_allreduce tuned (simulated)'
