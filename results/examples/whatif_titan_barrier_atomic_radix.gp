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
set title 'whatif_titan_barrier_atomic_radix'
set xlabel 'processes'
set ylabel 'latency (us)'
set bmargin 6
set label 100 'Is a radix-8 atomic barrier faster than radix 4 on a slice of Titan? MPI_Barrier with the Cheetah uGNI atomic barrier (every rank in the' at screen 0.012, screen 0.0382 left front font ',9'
set label 101 'fan-in/fan-out tree of Gemini FMA AMOs), tree radix 4 and 8, on 1,024 and 4,096 ranks (64 and 256 Titan nodes, 16 ranks each); one warm-up call' at screen 0.012, screen 0.0159 left front font ',9'
$whatif_titan_barrier_atomic_radix_radix_4 << EOD
ranks,latency_us
1024,26.687305752832188
4096,34.676406515689536
EOD
$whatif_titan_barrier_atomic_radix_radix_8 << EOD
ranks,latency_us
1024,24.27540611461132
4096,34.02448413572228
EOD
set yrange [23.8464 : 35.3002]
set ytics ("24" 24, "26" 26, "28" 28, "30" 30, "32" 32, "34" 34)
set terminal svg size 900,628 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'examples/whatif_titan_barrier_atomic_radix.svg.tmp'
plot $whatif_titan_barrier_atomic_radix_radix_4 using (column('ranks')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi cheetah-atomic radix=4 (simulated)', \
  $whatif_titan_barrier_atomic_radix_radix_8 using (column('ranks')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi cheetah-atomic radix=8 (simulated)'
