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
set title 'slingshot-ex, What-if Frontier reduce, each library''s own choice'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
set bmargin 6
set label 100 'osu_reduce (MPI_FLOAT, MPI_SUM, root 0) 8 B to 1 MiB with no "algorithm": the stack''s own collective library decides (Cray MPICH: MPICH v3.4a2''s' at screen 0.012, screen 0.0382 left front font ',9'
set label 101 'selection; Open MPI 5: coll/tuned v5''s fixed decision), 8 ranks per Frontier node (one per L3), 128, 512 and 4,096 ranks' at screen 0.012, screen 0.0159 left front font ',9'
set yrange [0.621144 : 209.264]
set ytics ("1" 1, "2" 2, "5" 5, "10" 10, "20" 20, "50" 50, "100" 100, "200" 200)
set terminal svg size 900,628 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/what-if_frontier_reduce_each_librarys_own_choice.svg.tmp'
plot 'slingshot/whatif_frontier_reduce_defaults_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'native osu_reduce linear (simulated)', \
  'slingshot/whatif_frontier_reduce_defaults_openmpi-linkx.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi-linkx osu_reduce tuned (simulated)'
