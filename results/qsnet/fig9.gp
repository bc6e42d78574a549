set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'qsnet/fig9.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'qsnet-elan4, Fig. 9: ping-pong by layer: latency seen at PTL/Elan4 (total minus PML and above), openmpi-elan4'
set xlabel 'message size (bytes)'
set ylabel 'ptl_us'
plot 'qsnet/fig9_layers_openmpi.csv' using (column('bytes')):(column('ptl_us')) with linespoints lc 1 pt 1 ps 0.6 title 'openmpi-elan4 pingpong_layers 2p (simulated)', \
  'qsnet/fig9_qdma.csv' using (column('bytes')):(column('ptl_us')) with linespoints lc 2 pt 1 ps 0.6 title 'elan4-qdma pingpong_layers 2p elan4_qdma_extra_bytes=64 (simulated)'
