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
set title 'slingshot-ex, Fig. 4 D2D intra-node: osu_bibw, D2D, 2 ranks on one Crusher node, one per L3'."\n".'(map-by ppr:1:l3cache, bind-to core)'
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
set bmargin 10
set label 100 'The paper gives no data points for this figure; the model is checked against its statements below.' at screen 0.012, screen 0.1170 left front font ',9'
set label 101 'The paper on this figure, and whether the model''s reading of it holds:' at screen 0.012, screen 0.0965 left front font ',9'
set label 102 '- "Open MPI bidirectional bandwidth tracks CrayMPICH; LINKx does not degrade bandwidth compared with the single-provider Open MPI line (Fig. 4)." (checked on the other curves it names,' at screen 0.012, screen 0.0760 left front font ',9'
set label 103 'not on these)' at screen 0.012, screen 0.0556 left front font ',9'
set label 104 '- "Intra-node D2D bandwidth with LINKx is very good for large messages (shared-memory path with IPC handle caching) (Fig. 4)." (holds)' at screen 0.012, screen 0.0351 left front font ',9'
set label 105 '- "With the CXI provider alone, intra-node latency and bandwidth are poor, worse with many ranks per node, because on-node messages go out through the NIC." (holds)' at screen 0.012, screen 0.0146 left front font ',9'
set yrange [0.000151497 : 634.982]
set ytics ("0.0003" 0.0003, "0.001" 0.001, "0.003" 0.003, "0.01" 0.01, "0.03" 0.03, "0.1" 0.1, "0.3" 0.3, "1" 1, "3" 3, "10" 10, "30" 30, "100" 100, "300" 300)
set terminal svg size 900,684 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/fig4_d2d_intra-node.svg.tmp'
plot 'slingshot/fig4_bibw_intra_d2d_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'native osu_bibw 2p (simulated)', \
  'slingshot/fig4_bibw_intra_d2d_openmpi-cxi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi-cxi osu_bibw 2p (simulated)', \
  'slingshot/fig4_bibw_intra_d2d_openmpi-linkx.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 3 dt 3 pt 4 ps 0.7 title 'openmpi-linkx osu_bibw 2p (simulated)'
