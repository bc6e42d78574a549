set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'qsnet/fig8.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'qsnet-elan4, Fig. 8: RDMA read with the FIN_ACK chained to the read, no completion queue (polling), openmpi-elan4'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'qsnet/fig8_chained.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 pt 1 ps 0.6 title 'openmpi-elan4 osu_latency 2p ptl_elan4_chained=on ptl_elan4_completion_queue=none (simulated)', \
  'qsnet/fig8_cq_one.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi-elan4 osu_latency 2p ptl_elan4_completion_queue=one (simulated)', \
  'qsnet/fig8_cq_two.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 pt 1 ps 0.6 title 'openmpi-elan4 osu_latency 2p ptl_elan4_completion_queue=two (simulated)', \
  'qsnet/fig8_unchained.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 4 pt 1 ps 0.6 title 'openmpi-elan4 osu_latency 2p ptl_elan4_chained=off ptl_elan4_completion_queue=none (simulated)'
