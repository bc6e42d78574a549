set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'qsnet/what-iflatency.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'qsnet-elan4, What-if latency: osu_latency between nodes 0 and 63 of a 4-ary 3-tree (4 switch hops), openmpi-elan4'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'qsnet/whatif_latency_64_far.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 pt 1 ps 0.6 title 'openmpi-elan4 osu_latency 2p (simulated)', \
  'qsnet/whatif_latency_64_far_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 pt 1 ps 0.6 title 'native osu_latency 2p (simulated)'
