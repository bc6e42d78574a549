set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key bottom right reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set logscale y
set grid
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set xtics ("1 B" 1, "4 B" 4, "16 B" 16, "64 B" 64, "256 B" 256, "1 KiB" 1024, "4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, "4 MiB" 4194304, "16 MiB" 16777216, "64 MiB" 67108864, "256 MiB" 268435456, "1 GiB" 1073741824)
set format y '%g'
set title 'heterogeneous, Fig. 3: NetPIPE over gigabit Ethernet (btl/tcp)'
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
set bmargin 10
set label 100 'The paper gives no data points for this figure; the model is checked against its statements below.' at screen 0.012, screen 0.1170 left front font ',9'
set label 101 'The paper on this figure, and whether the model''s reading of it holds:' at screen 0.012, screen 0.0965 left front font ',9'
set label 102 '- "Receiver-side endian conversion of MPI_INT costs about 5 Mbit/s of bandwidth at very large messages over gigabit Ethernet; MPI_BYTE costs nothing (Fig. 3)." (fails)' at screen 0.012, screen 0.0760 left front font ',9'
set label 103 '- "Processor heterogeneity comes at a cost, which can be significant for medium sized messages (§4.3)." (fails)' at screen 0.012, screen 0.0556 left front font ',9'
set label 104 'Curves "datatype=MPI_BYTE, g5-opteron, heterogeneous" and "datatype=MPI_INT, homogeneous opteron" coincide (within 0.26 % at every point; each later' at screen 0.012, screen 0.0351 left front font ',9'
set label 105 'one drawn with a larger marker).' at screen 0.012, screen 0.0146 left front font ',9'
set yrange [8.061e-05 : 0.162095]
set ytics ("0.0001" 0.0001, "0.0002" 0.0002, "0.0005" 0.0005, "0.001" 0.001, "0.002" 0.002, "0.005" 0.005, "0.01" 0.01, "0.02" 0.02, "0.05" 0.05, "0.1" 0.1)
set terminal svg size 900,684 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'hetero/fig3.svg.tmp'
plot 'hetero/fig3_netpipe_byte_hetero.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi netpipe 2p datatype=MPI_BYTE, g5-opteron, heterogeneous (simulated)', \
  'hetero/fig3_netpipe_int_hetero.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi netpipe 2p datatype=MPI_INT, g5-opteron, heterogeneous (simulated)', \
  'hetero/fig3_netpipe_int_opteron.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 3 dt 3 pt 4 ps 1.3 title 'openmpi netpipe 2p datatype=MPI_INT, homogeneous opteron (simulated)'
