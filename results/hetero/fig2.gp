set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key bottom right reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set logscale y
set grid
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set xtics ("1 B" 1, "4 B" 4, "16 B" 16, "64 B" 64, "256 B" 256, "1 KiB" 1024, "4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, "4 MiB" 4194304, "16 MiB" 16777216, "64 MiB" 67108864, "256 MiB" 268435456, "1 GiB" 1073741824)
set format y '%g'
set title 'heterogeneous, Fig. 2: NetPIPE bandwidth, 2 ranks on 2 lanl-multi-nic nodes'
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
set bmargin 9
set label 100 'The paper gives no data points for this figure; the model is checked against its statements below.' at screen 0.012, screen 0.0985 left front font ',9'
set label 101 'The paper on this figure, and whether the model''s reading of it holds:' at screen 0.012, screen 0.0776 left front font ',9'
set label 102 '- "Striping one message over InfiniBand and Myrinet gives a nearly additive bandwidth for large messages (Fig. 2)." (holds)' at screen 0.012, screen 0.0567 left front font ',9'
set label 103 '- "For small messages striping over both raises latency compared with InfiniBand alone (Fig. 2)." (holds)' at screen 0.012, screen 0.0358 left front font ',9'
set label 104 '- "For medium messages striping over both gives less bandwidth than InfiniBand alone (Fig. 2)." (holds)' at screen 0.012, screen 0.0149 left front font ',9'
set yrange [8.77888e-05 : 1.90606]
set ytics ("0.0001" 0.0001, "0.0003" 0.0003, "0.001" 0.001, "0.003" 0.003, "0.01" 0.01, "0.03" 0.03, "0.1" 0.1, "0.3" 0.3, "1" 1)
set terminal svg size 900,670 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'hetero/fig2.svg.tmp'
plot 'hetero/fig2_bw_both.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi netpipe 2p (simulated)', \
  'hetero/fig2_bw_both_stripe_above.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi netpipe 2p pml_ob1_stripe_policy=stripe_above (simulated)', \
  'hetero/fig2_bw_gm.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 3 dt 3 pt 4 ps 0.7 title 'openmpi-gm netpipe 2p (simulated)', \
  'hetero/fig2_bw_mvapi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 4 dt 4 pt 6 ps 0.7 title 'openmpi-mvapi netpipe 2p (simulated)'
