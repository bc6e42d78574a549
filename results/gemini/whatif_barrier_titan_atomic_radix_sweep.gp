set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key top right reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set logscale y
set grid
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set format x '%.0f'
set format y '%g'
set title 'gemini-xe-xk, whatif_barrier_titan_atomic_radix_sweep'
set xlabel 'tree radix'
set ylabel 'latency (us)'
set bmargin 6
set label 100 'What-if at whole-machine scale: MPI_Barrier over all of Titan (18,688 nodes x 16 cores = 299,008 ranks) with the Cheetah uGNI atomic barrier (every' at screen 0.012, screen 0.0382 left front font ',9'
set label 101 'rank in the P2P subgroup, fan-in/fan-out of FMA AMOs), tree radix 2, 4, 8, 16 and 32; one warm-up call' at screen 0.012, screen 0.0159 left front font ',9'
set yrange [71.2451 : 131.425]
set ytics ("80" 80, "90" 90, "100" 100, "110" 110, "120" 120, "130" 130)
set terminal svg size 900,628 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'gemini/whatif_barrier_titan_atomic_radix_sweep.svg.tmp'
plot 'gemini/whatif_barrier_titan_atomic_radix_sweep.csv' using (column('radix')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi cheetah-atomic 299008p (simulated)'
