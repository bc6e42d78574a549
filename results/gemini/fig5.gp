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
set title 'gemini-xe-xk, Fig. 5'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
set bmargin 11
set label 100 'Filled circles: the paper''s values.' at screen 0.012, screen 0.1517 left front font ',9'
set label 101 'Bars: prediction interval of a predicted or held-out point, the range of the simulated value over the sampled estimated parameters (validation/README.md); a point they do not move has' at screen 0.012, screen 0.1320 left front font ',9'
set label 102 'no bar.' at screen 0.012, screen 0.1124 left front font ',9'
set label 103 'The paper on this figure, and whether the model''s reading of it holds:' at screen 0.012, screen 0.0927 left front font ',9'
set label 104 '- "Inter-node, 2 processes, 1 kB: Open MPI (ugni) is 47% worse than the native MPI." (holds; undecided over the samples)' at screen 0.012, screen 0.0730 left front font ',9'
set label 105 '- "Inter-node, 2 processes, 4 MB: Open MPI is 5% better than the native MPI." (holds; undecided over the samples)' at screen 0.012, screen 0.0534 left front font ',9'
set label 106 '- "Inter-node, 2 processes, 1 byte: Open MPI''s latency is 1.56 usecs compared to the native MPI''s 1.52 usecs (Open MPI 2.6 % worse)." (holds; undecided over the samples)' at screen 0.012, screen 0.0337 left front font ',9'
set label 107 '- "The 2-process latency trends (native vs Open MPI at 1 B, 1 kB, 4 MB) also hold for the multi-pair runs (16 processes intra-node, 8 processes inter-node)." (holds)' at screen 0.012, screen 0.0140 left front font ',9'
set yrange [1.04005 : 4389.38]
set ytics ("2" 2, "5" 5, "10" 10, "20" 20, "50" 50, "100" 100, "200" 200, "500" 500, "1000" 1000, "2000" 2000)
set terminal svg size 900,712 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'gemini/fig5.svg.tmp'
plot 'gemini/fig5_latency_2p_inter_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'native osu_latency 2p (simulated)', \
  'gemini/fig5.fig5_latency_2p_inter_native.ref.dat' using 1:2 with points lc 1 pt 7 ps 1.6 title 'native osu_latency 2p (paper)', \
  'gemini/fig5_latency_2p_inter_openmpi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi osu_latency 2p (simulated)', \
  'gemini/fig5.fig5_latency_2p_inter_openmpi.ref.dat' using 1:2 with points lc 2 pt 7 ps 1.6 title 'openmpi osu_latency 2p (paper)', \
  'gemini/fig5_multi_lat_8p_inter_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 dt 3 pt 4 ps 0.7 title 'native osu_multi_lat 8p (simulated)', \
  'gemini/fig5.fig5_multi_lat_8p_inter_native.interval.dat' using 1:2:3:4 with yerrorbars lc 3 pt 6 ps 1.2 title 'native osu_multi_lat 8p (prediction interval: bars, see below)', \
  'gemini/fig5_multi_lat_8p_inter_openmpi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 4 dt 4 pt 6 ps 0.7 title 'openmpi osu_multi_lat 8p (simulated)', \
  'gemini/fig5.fig5_multi_lat_8p_inter_openmpi.interval.dat' using 1:2:3:4 with yerrorbars lc 4 pt 6 ps 1.2 title 'openmpi osu_multi_lat 8p (prediction interval: bars, see below)'
