set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key at screen 0.012, screen 0.0868 left top reverse Left box opaque font ',9' spacing 0.9 maxrows 1
set grid
set format y '%g'
set title 'gemini-xe-xk, whatif_barrier_titan_hierarchical_radix8'
set xlabel 'processes'
set ylabel 'latency (us)'
set xtics ('openmpi cheetah-hierarchical 299008p' 1)
set xrange [0.4 : 1.6]
set boxwidth 0.5
set yrange [0 : *]
set offsets 0, 0, graph 0.06, 0
set xlabel 'processes: 299008'
set bmargin 8
set label 100 'What-if at whole-machine scale: MPI_Barrier over all of Titan (18,688 nodes x 16 cores = 299,008 ranks) with the Cheetah hierarchical barrier' at screen 0.012, screen 0.0365 left front font ',9'
set label 101 '(shared-memory atomics within the node, uGNI AMOs across node leaders), radix 8; one warm-up call' at screen 0.012, screen 0.0152 left front font ',9'
set terminal svg size 900,657 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'gemini/whatif_barrier_titan_hierarchical_radix8.svg.tmp'
plot 'gemini/whatif_barrier_titan_hierarchical_radix8.csv' using (1):(column('latency_us')) with boxes lc 1 fs solid 0.4 border title 'openmpi cheetah-hierarchical 299008p (simulated)', \
  'gemini/whatif_barrier_titan_hierarchical_radix8.csv' using (1):((column('latency_us')) / 2):(sprintf('%.4g', (column('latency_us')))) with labels font ',10' notitle
