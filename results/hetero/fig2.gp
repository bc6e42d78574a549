set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'hetero/fig2.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'heterogeneous, Fig. 2: NetPIPE bandwidth, 2 ranks on 2 lanl-multi-nic nodes, MPI_Alloc_mem buffers, striped over InfiniBand and Myrinet (Open MPI 1.1 weighted round robin)'
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
plot 'hetero/fig2_bw_both.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 1 pt 1 ps 0.6 title 'openmpi netpipe 2p (simulated)', \
  'hetero/fig2_bw_both_stripe_above.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi netpipe 2p pml_ob1_stripe_policy=stripe_above (simulated)', \
  'hetero/fig2_bw_gm.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 3 pt 1 ps 0.6 title 'openmpi-gm netpipe 2p (simulated)', \
  'hetero/fig2_bw_mvapi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 4 pt 1 ps 0.6 title 'openmpi-mvapi netpipe 2p (simulated)'
