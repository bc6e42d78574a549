set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'qsnet/fig10b.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'qsnet-elan4, Fig. 10(b): osu_bw bandwidth, MPICH-QsNetII over Tport'
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
plot 'qsnet/fig10_bw_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 1 pt 1 ps 0.6 title 'native osu_bw 2p (simulated)', \
  'qsnet/fig10_bw_openmpi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi-elan4 osu_bw 2p (simulated)'
