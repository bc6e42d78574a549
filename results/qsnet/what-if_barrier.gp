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
set title 'qsnet-elan4, What-if barrier: MPI_Barrier'
set xlabel 'processes'
set ylabel 'latency (us)'
set yrange [23.9256 : 82.1797]
set ytics ("30" 30, "40" 40, "50" 50, "60" 60, "70" 70, "80" 80)
set terminal svg size 900,600 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'qsnet/what-if_barrier.svg.tmp'
plot 'qsnet/whatif_barrier_4096_native.csv' using (column('ranks')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 1.4 title 'native tuned 4096p on whatif-qsnet-4096 (simulated)', \
  'qsnet/whatif_barrier_4096_openmpi.csv' using (column('ranks')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 1.4 title 'openmpi-elan4 tuned 4096p on whatif-qsnet-4096 (simulated)', \
  'qsnet/whatif_barrier_512_native.csv' using (column('ranks')):(column('latency_us')) with linespoints lc 3 dt 3 pt 4 ps 1.4 title 'native tuned 512p on whatif-qsnet-512 (simulated)', \
  'qsnet/whatif_barrier_512_openmpi.csv' using (column('ranks')):(column('latency_us')) with linespoints lc 4 dt 4 pt 6 ps 1.4 title 'openmpi-elan4 tuned 512p on whatif-qsnet-512 (simulated)', \
  'qsnet/whatif_barrier_64_native.csv' using (column('ranks')):(column('latency_us')) with linespoints lc 5 dt 5 pt 8 ps 1.4 title 'native tuned 64p on whatif-qsnet-64 (simulated)', \
  'qsnet/whatif_barrier_64_openmpi.csv' using (column('ranks')):(column('latency_us')) with linespoints lc 6 dt 1 pt 10 ps 1.4 title 'openmpi-elan4 tuned 64p on whatif-qsnet-64 (simulated)'
