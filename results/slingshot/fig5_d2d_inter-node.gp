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
set title 'slingshot-ex, Fig. 5 D2D inter-node: osu_latency, D2D, 2 ranks on 2 Crusher nodes (map-by'."\n".'ppr:1:node)'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
set bmargin 10
set label 100 'Filled circles keyed "public measurement": measurements of the same system published elsewhere (the paper quotes no numbers here).' at screen 0.012, screen 0.1170 left front font ',9'
set label 101 'The paper on this figure, and whether the model''s reading of it holds:' at screen 0.012, screen 0.0965 left front font ',9'
set label 102 '- "Latency: CrayMPICH much better at small messages; Open MPI with LINKx roughly matches at large messages (Fig. 5)." (checked on the other curves it names, not on these)' at screen 0.012, screen 0.0760 left front font ',9'
set label 103 '- "The CrayMPICH intra-node H2H test shows much higher latency at the larger message sizes, which needs further investigation (Fig. 5)." (checked on the other curves it names, not on' at screen 0.012, screen 0.0556 left front font ',9'
set label 104 'these)' at screen 0.012, screen 0.0351 left front font ',9'
set label 105 'Curves "native osu_latency 2p" and "openmpi-cxi osu_latency 2p" coincide (within 2 % at every point; each later one drawn with a larger marker).' at screen 0.012, screen 0.0146 left front font ',9'
set yrange [2.01804 : 224.461]
set ytics ("3" 3, "5" 5, "10" 10, "20" 20, "30" 30, "50" 50, "100" 100, "200" 200)
set terminal svg size 900,684 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/fig5_d2d_inter-node.svg.tmp'
plot 'slingshot/fig5_latency_inter_d2d_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'native osu_latency 2p (simulated)', \
  'slingshot/fig5_d2d_inter-node.fig5_latency_inter_d2d_native.ref.dat' using 1:2 with points lc 1 pt 7 ps 1.6 title 'native osu_latency 2p (public measurement)', \
  'slingshot/fig5_latency_inter_d2d_openmpi-cxi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 1.3 title 'openmpi-cxi osu_latency 2p (simulated)', \
  'slingshot/fig5_latency_inter_d2d_openmpi-linkx.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 dt 3 pt 4 ps 0.7 title 'openmpi-linkx osu_latency 2p (simulated)'
