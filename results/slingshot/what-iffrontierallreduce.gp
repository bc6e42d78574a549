set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'slingshot/what-iffrontierallreduce.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'slingshot-ex, What-if Frontier allreduce: osu_allreduce 8 B (coll/base recursive doubling for both stacks), 8 ranks per Frontier node (one per L3), 512 ranks to the whole machine (9,408 nodes = 75,264 ranks), Cray MPICH (native); 20 timed calls after 2 warm-up calls'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'slingshot/whatif_frontier_allreduce8_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 pt 1 ps 0.6 title 'native osu_allreduce recursive_doubling (simulated)', \
  'slingshot/whatif_frontier_allreduce8_openmpi-linkx.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi-linkx osu_allreduce recursive_doubling (simulated)'
