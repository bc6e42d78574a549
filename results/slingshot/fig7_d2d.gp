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
set title 'slingshot-ex, Fig. 7 D2D: osu_alltoall, D2D, 512 ranks = 64 Crusher nodes x 8 (one per L3)'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
set bmargin 9
set label 100 'The paper gives no data points for this figure; the model is checked against its statements below.' at screen 0.012, screen 0.0985 left front font ',9'
set label 101 'The paper on this figure, and whether the model''s reading of it holds:' at screen 0.012, screen 0.0776 left front font ',9'
set label 102 '- "CrayMPICH is much better for small-message collectives; trends converge at larger sizes (Figs. 7-11)." (checked on the other curves it names, not on these)' at screen 0.012, screen 0.0567 left front font ',9'
set label 103 'Curves "native osu_alltoall pairwise 512p" and "openmpi-cxi osu_alltoall pairwise 512p" coincide (within 1.2 % at every point; each later one drawn' at screen 0.012, screen 0.0358 left front font ',9'
set label 104 'with a larger marker).' at screen 0.012, screen 0.0149 left front font ',9'
set yrange [25.0729 : 824154]
set ytics ("30" 30, "100" 100, "300" 300, "1000" 1000, "3000" 3000, "10000" 10000, "30000" 30000, "1e5" 100000, "3e5" 300000)
set terminal svg size 900,670 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/fig7_d2d.svg.tmp'
plot 'slingshot/fig7_alltoall_512p_d2d_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'native osu_alltoall pairwise 512p (simulated)', \
  'slingshot/fig7_alltoall_512p_d2d_native_defaults.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'native osu_alltoall mpich 512p (simulated)', \
  'slingshot/fig7_alltoall_512p_d2d_openmpi-cxi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 dt 3 pt 4 ps 1.3 title 'openmpi-cxi osu_alltoall pairwise 512p (simulated)', \
  'slingshot/fig7_alltoall_512p_d2d_openmpi-cxi_defaults.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 4 dt 4 pt 6 ps 0.7 title 'openmpi-cxi osu_alltoall tuned 512p (simulated)', \
  'slingshot/fig7_alltoall_512p_d2d_openmpi-linkx.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 5 dt 5 pt 8 ps 0.7 title 'openmpi-linkx osu_alltoall pairwise 512p (simulated)', \
  'slingshot/fig7_alltoall_512p_d2d_openmpi-linkx_defaults.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 6 dt 1 pt 10 ps 0.7 title 'openmpi-linkx osu_alltoall tuned 512p (simulated)'
