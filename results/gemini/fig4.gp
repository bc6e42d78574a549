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
set title 'gemini-xe-xk, Fig. 4'
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
set bmargin 8
set label 100 'Filled circles: the paper''s values.' at screen 0.012, screen 0.0793 left front font ',9'
set label 101 'The paper on this figure, and whether the model''s reading of it holds:' at screen 0.012, screen 0.0579 left front font ',9'
set label 102 '- "Intra-node, 2 processes: Open MPI peak bidirectional bandwidth is about 15% above the native MPI''s." (holds; undecided over the samples)' at screen 0.012, screen 0.0366 left front font ',9'
set label 103 '- "Intra-node, 2 processes: Open MPI achieves a maximum bidirectional bandwidth of 15 GB/s at 100 kB and the native MPI a maximum of 13 GB/sec at 32 kB (Fig. 4)." (fails)' at screen 0.012, screen 0.0152 left front font ',9'
set yrange [0.00205868 : 39.6819]
set ytics ("0.005" 0.005, "0.01" 0.01, "0.02" 0.02, "0.05" 0.05, "0.1" 0.1, "0.2" 0.2, "0.5" 0.5, "1" 1, "2" 2, "5" 5, "10" 10, "20" 20)
set terminal svg size 900,656 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'gemini/fig4.svg.tmp'
plot 'gemini/fig4_bibw_2p_intra_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'native osu_bibw 2p (simulated)', \
  'gemini/fig4.fig4_bibw_2p_intra_native.ref.dat' using 1:2 with points lc 1 pt 7 ps 1.6 title 'native osu_bibw 2p (paper)', \
  'gemini/fig4_bibw_2p_intra_openmpi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi osu_bibw 2p (simulated)', \
  'gemini/fig4.fig4_bibw_2p_intra_openmpi.ref.dat' using 1:2 with points lc 2 pt 7 ps 1.6 title 'openmpi osu_bibw 2p (paper)', \
  'gemini/fig4_mbw_mr_16p_intra_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 3 dt 3 pt 4 ps 0.7 title 'native osu_mbw_mr 16p (simulated)', \
  'gemini/fig4_mbw_mr_16p_intra_openmpi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 4 dt 4 pt 6 ps 0.7 title 'openmpi osu_mbw_mr 16p (simulated)'
