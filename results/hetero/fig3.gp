set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'hetero/fig3.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'heterogeneous, Fig. 3: NetPIPE over gigabit Ethernet (btl/tcp), G5 (big-endian) to Opteron (little-endian), MPI_BYTE'
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
plot 'hetero/fig3_netpipe_byte_hetero.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 1 pt 1 ps 0.6 title 'openmpi netpipe 2p datatype=MPI_BYTE, g5-opteron, heterogeneous (simulated)', \
  'hetero/fig3_netpipe_int_hetero.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi netpipe 2p datatype=MPI_INT, g5-opteron, heterogeneous (simulated)', \
  'hetero/fig3_netpipe_int_opteron.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 3 pt 1 ps 0.6 title 'openmpi netpipe 2p datatype=MPI_INT, homogeneous opteron (simulated)'
