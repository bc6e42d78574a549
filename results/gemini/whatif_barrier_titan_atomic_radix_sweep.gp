set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output '/work/main/results/gemini/whatif_barrier_titan_atomic_radix_sweep.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set title 'gemini/whatif_barrier_titan_atomic_radix_sweep'
set xlabel 'tree radix'
set ylabel 'latency (us)'
plot '/work/main/results/gemini/whatif_barrier_titan_atomic_radix_sweep.csv' using (column('radix')):(column('latency_us')) with linespoints title 'openmpi cheetah-atomic 299008p'
