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
set title 'slingshot-ex, Fig. 6 D2D inter-node: osu_mbw_mr, D2D, 2 ranks on 2 Crusher nodes (map-by'."\n".'ppr:1:node)'
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
set bmargin 7
set label 100 'The paper gives no data points for this figure; the model is checked against its statements below.' at screen 0.012, screen 0.0592 left front font ',9'
set label 101 'The paper on this figure, and whether the model''s reading of it holds:' at screen 0.012, screen 0.0374 left front font ',9'
set label 102 '- "CrayMPICH has much better small-message rates for intra-node H2H and D2D (Fig. 6)." (checked on the other curves it names, not on these)' at screen 0.012, screen 0.0156 left front font ',9'
set yrange [0.000375823 : 40.7233]
set ytics ("0.001" 0.001, "0.003" 0.003, "0.01" 0.01, "0.03" 0.03, "0.1" 0.1, "0.3" 0.3, "1" 1, "3" 3, "10" 10, "30" 30)
set terminal svg size 900,642 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/fig6_d2d_inter-node.svg.tmp'
plot 'slingshot/fig6_mbw_mr_inter_d2d_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'native osu_mbw_mr 2p (simulated)', \
  'slingshot/fig6_mbw_mr_inter_d2d_openmpi-cxi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi-cxi osu_mbw_mr 2p (simulated)', \
  'slingshot/fig6_mbw_mr_inter_d2d_openmpi-linkx.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 3 dt 3 pt 4 ps 0.7 title 'openmpi-linkx osu_mbw_mr 2p (simulated)'
