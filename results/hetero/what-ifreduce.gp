set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'hetero/what-ifreduce.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'heterogeneous, What-if reduce: IMB-MPI1 Reduce over gigabit Ethernet (btl/tcp), 16 nodes one rank each: 8 Opteron + 8 G5, block ordering: ranks 0-7 on Opterons, 8-15 on G5s (heterogeneous); what-if: coll/basic''s hypercube reduce (basic_log) instead of Open MPI 1.1''s coll/tuned linear one'
set xlabel 'message size (bytes)'
set ylabel 't_avg_us'
plot 'hetero/whatif_reduce_basic_log_block.csv' using (column('bytes')):(column('t_avg_us')) with linespoints lc 1 pt 1 ps 0.6 title 'openmpi IMB Reduce basic_log 16p, heterogeneous, block 8 opteron + 8 g5 (simulated)', \
  'hetero/whatif_reduce_basic_log_opteron.csv' using (column('bytes')):(column('t_avg_us')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi IMB Reduce basic_log 16p, homogeneous opteron (simulated)', \
  'hetero/whatif_reduce_basic_log_rr.csv' using (column('bytes')):(column('t_avg_us')) with linespoints lc 3 pt 1 ps 0.6 title 'openmpi IMB Reduce basic_log 16p, heterogeneous, round robin opteron/g5 (simulated)'
