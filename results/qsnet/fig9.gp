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
set title 'qsnet-elan4, Fig. 9'
set xlabel 'message size (bytes)'
set ylabel 'latency at the PTL (us)'
set bmargin 8
set label 100 'The paper gives no data points for this figure; the model is checked against its statements below.' at screen 0.012, screen 0.0793 left front font ',9'
set label 101 'The paper on this figure, and whether the model''s reading of it holds:' at screen 0.012, screen 0.0579 left front font ',9'
set label 102 '- "PML and above cost about 0.5 us (Fig. 9)." (fails)' at screen 0.012, screen 0.0366 left front font ',9'
set label 103 '- "PTL/Elan4 latency is comparable to native QDMA latency of a (64+N)-byte message (Fig. 9)." (holds)' at screen 0.012, screen 0.0152 left front font ',9'
set yrange [3.07061 : 6.12599]
set ytics ("3.5" 3.5, "4" 4, "4.5" 4.5, "5" 5, "5.5" 5.5, "6" 6)
set terminal svg size 900,656 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'qsnet/fig9.svg.tmp'
plot 'qsnet/fig9_layers_openmpi.csv' using (column('bytes')):(column('ptl_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi-elan4 pingpong_layers 2p (simulated)', \
  'qsnet/fig9_qdma.csv' using (column('bytes')):(column('ptl_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'elan4-qdma pingpong_layers 2p elan4_qdma_extra_bytes=64 (simulated)'
