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
set title 'slingshot-ex, Fig. 6 H2H intra-node: osu_mbw_mr, H2H, 8 ranks on one Crusher node, one per L3'."\n".'(map-by ppr:1:l3cache, bind-to core; pairs i, i+4)'
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
set bmargin 8
set label 100 'Dashed lines: a peak value given without a message size.' at screen 0.012, screen 0.0793 left front font ',9'
set label 101 'The paper on this figure, and whether the model''s reading of it holds:' at screen 0.012, screen 0.0579 left front font ',9'
set label 102 '- "With the CXI provider alone, intra-node latency and bandwidth are poor, worse with many ranks per node, because on-node messages go out through the NIC." (holds)' at screen 0.012, screen 0.0366 left front font ',9'
set label 103 '- "CrayMPICH has much better small-message rates for intra-node H2H and D2D (Fig. 6)." (fails)' at screen 0.012, screen 0.0152 left front font ',9'
set yrange [0.00233484 : 201.743]
set ytics ("0.003" 0.003, "0.01" 0.01, "0.03" 0.03, "0.1" 0.1, "0.3" 0.3, "1" 1, "3" 3, "10" 10, "30" 30, "100" 100)
set terminal svg size 900,656 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/fig6_h2h_intra-node.svg.tmp'
plot 'slingshot/fig6_mbw_mr_intra_h2h_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'native osu_mbw_mr 8p (simulated)', \
  120.34 with lines lc 1 dt 4 lw 1.5 title 'native osu_mbw_mr 8p (public measurement: peak 120.34)', \
  'slingshot/fig6_mbw_mr_intra_h2h_openmpi-cxi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi-cxi osu_mbw_mr 8p (simulated)', \
  'slingshot/fig6_mbw_mr_intra_h2h_openmpi-linkx.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 3 dt 3 pt 4 ps 0.7 title 'openmpi-linkx osu_mbw_mr 8p (simulated)'
