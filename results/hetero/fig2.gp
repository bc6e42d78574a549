set terminal svg size 900,600 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'hetero/fig2.svg.tmp'
set datafile separator ','
set key top left reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set logscale y
set grid
set xtics ("1 B" 1, "4 B" 4, "16 B" 16, "64 B" 64, "256 B" 256, "1 KiB" 1024, "4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, "4 MiB" 4194304, "16 MiB" 16777216, "64 MiB" 67108864, "256 MiB" 268435456, "1 GiB" 1073741824)
set format y '%g'
set title "heterogeneous, Fig. 2: NetPIPE bandwidth, 2 ranks on 2 lanl-multi-nic nodes, MPI_Alloc_mem\nbuffers, striped over InfiniBand and Myrinet (Open MPI 1.1 weighted round robin)"
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
plot 'hetero/fig2_bw_both.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi netpipe 2p (simulated)', \
  'hetero/fig2_bw_both_stripe_above.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi netpipe 2p pml_ob1_stripe_policy=stripe_above (simulated)', \
  'hetero/fig2_bw_gm.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 3 dt 3 pt 4 ps 0.7 title 'openmpi-gm netpipe 2p (simulated)', \
  'hetero/fig2_bw_mvapi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 4 dt 4 pt 6 ps 0.7 title 'openmpi-mvapi netpipe 2p (simulated)'
