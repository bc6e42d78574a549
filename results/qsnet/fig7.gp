set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'qsnet/fig7.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'qsnet-elan4, Fig. 7: latency up to 4 KB around the 1984-byte rendezvous threshold, RDMA read, memcpy, no inline, openmpi-elan4'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'qsnet/fig7_read.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 pt 1 ps 0.6 title 'openmpi-elan4 osu_latency 2p ptl_elan4_rdma=read (simulated)', \
  'qsnet/fig7_read_datatype.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi-elan4 osu_latency 2p ptl_elan4_datatype=on ptl_elan4_rdma=read (simulated)', \
  'qsnet/fig7_read_inline.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 pt 1 ps 0.6 title 'openmpi-elan4 osu_latency 2p ptl_elan4_inline=on ptl_elan4_rdma=read (simulated)', \
  'qsnet/fig7_write.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 4 pt 1 ps 0.6 title 'openmpi-elan4 osu_latency 2p ptl_elan4_rdma=write (simulated)', \
  'qsnet/fig7_write_datatype.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 5 pt 1 ps 0.6 title 'openmpi-elan4 osu_latency 2p ptl_elan4_datatype=on ptl_elan4_rdma=write (simulated)', \
  'qsnet/fig7_write_inline.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 6 pt 1 ps 0.6 title 'openmpi-elan4 osu_latency 2p ptl_elan4_inline=on ptl_elan4_rdma=write (simulated)'
