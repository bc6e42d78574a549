set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key top left reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set logscale y
set grid
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set format x '%.0f'
set format y '%g'
set title 'slingshot-ex, What-if Frontier allreduce'
set xlabel 'processes'
set ylabel 'latency (us)'
set bmargin 6
set label 100 'osu_allreduce 8 B (coll/base recursive doubling for both stacks), 8 ranks per Frontier node (one per L3), 512 ranks to the whole machine (9,408 nodes' at screen 0.012, screen 0.0382 left front font ',9'
set label 101 '= 75,264 ranks)' at screen 0.012, screen 0.0159 left front font ',9'
set yrange [14.8526 : 55.7548]
set ytics ("15" 15, "20" 20, "30" 30, "40" 40, "50" 50)
set terminal svg size 900,628 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/what-if_frontier_allreduce.svg.tmp'
plot 'slingshot/whatif_frontier_allreduce8_native.csv' using (column('ranks')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'native osu_allreduce recursive_doubling (simulated)', \
  'slingshot/whatif_frontier_allreduce8_openmpi-linkx.csv' using (column('ranks')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi-linkx osu_allreduce recursive_doubling (simulated)'
