set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output '/work/main/results/gemini/whatif_barrier_titan_hierarchical_radix8.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set title 'gemini/whatif_barrier_titan_hierarchical_radix8'
set xlabel 'processes'
set ylabel 'latency (us)'
plot '/work/main/results/gemini/whatif_barrier_titan_hierarchical_radix8.csv' using (column('ranks')):(column('latency_us')) with linespoints title 'openmpi cheetah-hierarchical 299008p'
