set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'gemini/whatif_barrier_titan_hierarchical_radix8.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0f'
set format y '%g'
set title 'gemini-xe-xk, whatif_barrier_titan_hierarchical_radix8: What-if at whole-machine scale: MPI_Barrier over all of Titan (18,688 nodes x 16 cores = 299,008 ranks) with the Cheetah hierarchical barrier (shared-memory atomics within the node, uGNI AMOs across node leaders), radix 8; one warm-up call'
set xlabel 'processes'
set ylabel 'latency (us)'
plot 'gemini/whatif_barrier_titan_hierarchical_radix8.csv' using (column('ranks')):(column('latency_us')) with linespoints lc 1 pt 1 ps 0.6 title 'openmpi cheetah-hierarchical 299008p (simulated)'
