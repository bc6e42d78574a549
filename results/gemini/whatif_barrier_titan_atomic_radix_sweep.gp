set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'gemini/whatif_barrier_titan_atomic_radix_sweep.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0f'
set format y '%g'
set title 'gemini-xe-xk, whatif_barrier_titan_atomic_radix_sweep: What-if at whole-machine scale: MPI_Barrier over all of Titan (18,688 nodes x 16 cores = 299,008 ranks) with the Cheetah uGNI atomic barrier (every rank in the P2P subgroup, fan-in/fan-out of FMA AMOs), tree radix 2, 4, 8, 16 and 32; one warm-up call'
set xlabel 'tree radix'
set ylabel 'latency (us)'
plot 'gemini/whatif_barrier_titan_atomic_radix_sweep.csv' using (column('radix')):(column('latency_us')) with linespoints lc 1 pt 1 ps 0.6 title 'openmpi cheetah-atomic 299008p (simulated)'
