set datafile separator ','
set key top left reverse Left box opaque font ',9' spacing 0.9
set grid
set format y '%g'
set title "gemini-xe-xk, whatif_barrier_titan_hierarchical_radix8"
set xlabel 'processes'
set ylabel 'latency (us)'
set xtics ('openmpi cheetah-hierarchical 299008p' 1)
set xrange [0.4 : 1.6]
set boxwidth 0.5
set yrange [0 : *]
set xlabel 'processes: 299008'
set bmargin 6
set label 100 'What-if at whole-machine scale: MPI_Barrier over all of Titan (18,688 nodes x 16 cores = 299,008 ranks) with the Cheetah hierarchical barrier' at screen 0.012, screen 0.0382 left front font ',9'
set label 101 '(shared-memory atomics within the node, uGNI AMOs across node leaders), radix 8; one warm-up call' at screen 0.012, screen 0.0159 left front font ',9'
set terminal unknown
plot 'gemini/whatif_barrier_titan_hierarchical_radix8.csv' using (1):(column('latency_us')) with boxes lc 1 fs solid 0.4 border title 'openmpi cheetah-hierarchical 299008p (simulated)', \
  'gemini/whatif_barrier_titan_hierarchical_radix8.csv' using (1):((column('latency_us')) / 2):(sprintf('%.4g', (column('latency_us')))) with labels font ',10' notitle
y0 = GPVAL_Y_MIN; y1 = GPVAL_Y_MAX
set yrange [y0 : y0 + (y1 - y0) / 0.9444]
set terminal svg size 900,628 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'gemini/whatif_barrier_titan_hierarchical_radix8.svg.tmp'
replot
