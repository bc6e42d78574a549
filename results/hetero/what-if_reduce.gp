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
set title 'heterogeneous, What-if reduce: IMB-MPI1 Reduce over gigabit Ethernet (btl/tcp), 16 nodes one'."\n".'rank each'
set xlabel 'message size (bytes)'
set ylabel 't_avg, IMB mean over the ranks (us)'
set bmargin 6
set label 100 'Curves "heterogeneous, block 8 opteron + 8 g5" and "heterogeneous, round robin opteron/g5" coincide (within 1.2 % at every point; each later one drawn' at screen 0.012, screen 0.0382 left front font ',9'
set label 101 'with a larger marker).' at screen 0.012, screen 0.0159 left front font ',9'
set yrange [97.0646 : 323472]
set ytics ("100" 100, "200" 200, "500" 500, "1000" 1000, "2000" 2000, "5000" 5000, "10000" 10000, "20000" 20000, "50000" 50000, "1e5" 100000, "2e5" 200000)
set terminal svg size 900,628 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'hetero/what-if_reduce.svg.tmp'
plot 'hetero/whatif_reduce_basic_log_block.csv' using (column('bytes')):(column('t_avg_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi IMB Reduce basic_log 16p, heterogeneous, block 8 opteron + 8 g5 (simulated)', \
  'hetero/whatif_reduce_basic_log_opteron.csv' using (column('bytes')):(column('t_avg_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi IMB Reduce basic_log 16p, homogeneous opteron (simulated)', \
  'hetero/whatif_reduce_basic_log_rr.csv' using (column('bytes')):(column('t_avg_us')) with linespoints lc 3 dt 3 pt 4 ps 1.3 title 'openmpi IMB Reduce basic_log 16p, heterogeneous, round robin opteron/g5 (simulated)'
