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
set title 'gemini-xe-xk, Fig. 6'
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
set bmargin 7
set label 100 'Filled circles: the paper''s values.' at screen 0.012, screen 0.0592 left front font ',9'
set label 101 'The paper on this figure, and whether the model''s reading of it holds:' at screen 0.012, screen 0.0374 left front font ',9'
set label 102 '- "Inter-node, 2 processes, 4 MB: Open MPI''s bidirectional bandwidth is 6.8 GB/s, the native MPI''s 6.7 GB/s (Open MPI 1.5 % better)." (holds; undecided over the samples)' at screen 0.012, screen 0.0156 left front font ',9'
set yrange [0.000897445 : 10.4051]
set ytics ("0.001" 0.001, "0.002" 0.002, "0.005" 0.005, "0.01" 0.01, "0.02" 0.02, "0.05" 0.05, "0.1" 0.1, "0.2" 0.2, "0.5" 0.5, "1" 1, "2" 2, "5" 5, "10" 10)
set terminal svg size 900,642 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'gemini/fig6.svg.tmp'
plot 'gemini/fig6_bibw_2p_inter_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'native osu_bibw 2p (simulated)', \
  'gemini/fig6.fig6_bibw_2p_inter_native.ref.dat' using 1:2 with points lc 1 pt 7 ps 1.6 title 'native osu_bibw 2p (paper)', \
  'gemini/fig6_bibw_2p_inter_openmpi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi osu_bibw 2p (simulated)', \
  'gemini/fig6.fig6_bibw_2p_inter_openmpi.ref.dat' using 1:2 with points lc 2 pt 7 ps 1.6 title 'openmpi osu_bibw 2p (paper)', \
  'gemini/fig6_mbw_mr_8p_inter_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 3 dt 3 pt 4 ps 0.7 title 'native osu_mbw_mr 8p (simulated)', \
  'gemini/fig6_mbw_mr_8p_inter_openmpi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 4 dt 4 pt 6 ps 0.7 title 'openmpi osu_mbw_mr 8p (simulated)'
