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
set title 'heterogeneous, Fig. 4: IMB-MPI1 Reduce over gigabit Ethernet (btl/tcp), 16 nodes one rank each'
set xlabel 'message size (bytes)'
set ylabel 't_avg, IMB mean over the ranks (us)'
set bmargin 10
set label 100 'The paper gives no data points for this figure; the model is checked against its statements below.' at screen 0.012, screen 0.1170 left front font ',9'
set label 101 'The paper on this figure, and whether the model''s reading of it holds:' at screen 0.012, screen 0.0965 left front font ',9'
set label 102 '- "IMB Reduce on 16 nodes: heterogeneous runs are slower than homogeneous ones for larger messages, and block vs round-robin placement of the two architectures changes the result (Fig.' at screen 0.012, screen 0.0760 left front font ',9'
set label 103 '4)." (fails)' at screen 0.012, screen 0.0556 left front font ',9'
set label 104 'Curves "heterogeneous, block 8 opteron + 8 g5", "homogeneous opteron" and "heterogeneous, round robin opteron/g5" coincide (within 1.8 % at every' at screen 0.012, screen 0.0351 left front font ',9'
set label 105 'point; each later one drawn with a larger marker).' at screen 0.012, screen 0.0146 left front font ',9'
set yrange [24.0574 : 607347]
set ytics ("30" 30, "100" 100, "300" 300, "1000" 1000, "3000" 3000, "10000" 10000, "30000" 30000, "1e5" 100000, "3e5" 300000)
set terminal svg size 900,684 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'hetero/fig4.svg.tmp'
plot 'hetero/fig4_imb_reduce_block.csv' using (column('bytes')):(column('t_avg_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi IMB Reduce tuned-v1.1 16p, heterogeneous, block 8 opteron + 8 g5 (simulated)', \
  'hetero/fig4_imb_reduce_g5.csv' using (column('bytes')):(column('t_avg_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi IMB Reduce tuned-v1.1 16p, homogeneous g5 (simulated)', \
  'hetero/fig4_imb_reduce_opteron.csv' using (column('bytes')):(column('t_avg_us')) with linespoints lc 3 dt 3 pt 4 ps 1.3 title 'openmpi IMB Reduce tuned-v1.1 16p, homogeneous opteron (simulated)', \
  'hetero/fig4_imb_reduce_rr.csv' using (column('bytes')):(column('t_avg_us')) with linespoints lc 4 dt 4 pt 6 ps 1.9 title 'openmpi IMB Reduce tuned-v1.1 16p, heterogeneous, round robin opteron/g5 (simulated)'
