set datafile separator ','
set key top left reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set logscale y
set grid
set offsets graph 0.02, graph 0.02, 0, 0
set format x '%.0f'
set format y '%g'
set title "gemini-xe-xk, whatif_barrier_titan_hierarchical_radix8: What-if at whole-machine scale:\nMPI_Barrier over all of Titan (18,688 nodes x 16 cores = 299,008 ranks) with the Cheetah\nhierarchical barrier (shared-memory atomics within the node, uGNI AMOs across node leaders),\nradix 8; one warm-up call"
set xlabel 'processes'
set ylabel 'latency (us)'
set terminal unknown
plot 'gemini/whatif_barrier_titan_hierarchical_radix8.csv' using (column('ranks')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi cheetah-hierarchical 299008p (simulated)'
y0 = GPVAL_Y_MIN; y1 = GPVAL_Y_MAX
set yrange [y0 : y0 * (y1 / y0) ** (1.0 / 0.9378)]
set terminal svg size 900,600 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'gemini/whatif_barrier_titan_hierarchical_radix8.svg.tmp'
replot
