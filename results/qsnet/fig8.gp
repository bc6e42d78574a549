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
set title 'qsnet-elan4, Fig. 8: RDMA read'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
set bmargin 12
set label 100 'The paper gives no data points for this figure; the model is checked against its statements below.' at screen 0.012, screen 0.1680 left front font ',9'
set label 101 'The paper on this figure, and whether the model''s reading of it holds:' at screen 0.012, screen 0.1488 left front font ',9'
set label 102 '- "Chained DMA for completion notification gives a marginal improvement for messages of 2 KB and above (Fig. 8)." (holds)' at screen 0.012, screen 0.1295 left front font ',9'
set label 103 '- "A shared completion queue (one-queue or two-queue) costs latency; under polling, checking two host events costs about the same as checking one, so one-queue and two-queue are about' at screen 0.012, screen 0.1102 left front font ',9'
set label 104 'the same (Fig. 8)." (holds)' at screen 0.012, screen 0.0909 left front font ',9'
set label 105 'Curves "ptl_elan4_chained=on ptl_elan4_completion_queue=none" and "ptl_elan4_chained=off ptl_elan4_completion_queue=none" coincide (within 0.8 % at' at screen 0.012, screen 0.0716 left front font ',9'
set label 106 'every point; each later one drawn with a larger marker).' at screen 0.012, screen 0.0523 left front font ',9'
set label 107 'Curves "ptl_elan4_completion_queue=one" and "ptl_elan4_completion_queue=two" coincide (within 1.3 % at every point; each later one drawn with a larger' at screen 0.012, screen 0.0331 left front font ',9'
set label 108 'marker).' at screen 0.012, screen 0.0138 left front font ',9'
set yrange [3.49756 : 32.4268]
set ytics ("4" 4, "5" 5, "7" 7, "10" 10, "15" 15, "20" 20, "30" 30)
set terminal svg size 900,726 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'qsnet/fig8.svg.tmp'
plot 'qsnet/fig8_chained.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi-elan4 osu_latency 2p ptl_elan4_chained=on ptl_elan4_completion_queue=none (simulated)', \
  'qsnet/fig8_cq_one.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi-elan4 osu_latency 2p ptl_elan4_completion_queue=one (simulated)', \
  'qsnet/fig8_cq_two.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 dt 3 pt 4 ps 1.3 title 'openmpi-elan4 osu_latency 2p ptl_elan4_completion_queue=two (simulated)', \
  'qsnet/fig8_unchained.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 4 dt 4 pt 6 ps 1.3 title 'openmpi-elan4 osu_latency 2p ptl_elan4_chained=off ptl_elan4_completion_queue=none (simulated)'
