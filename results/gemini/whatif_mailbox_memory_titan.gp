set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output '/work/main/results/gemini/whatif_mailbox_memory_titan.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set title 'gemini/whatif_mailbox_memory_titan'
set xlabel 'processes'
set ylabel 'latency (us)'
plot '/work/main/results/gemini/whatif_mailbox_memory_titan.csv' using (column('ranks')):(column('latency_us')) with linespoints title 'openmpi cheetah-p2p 16384p'
