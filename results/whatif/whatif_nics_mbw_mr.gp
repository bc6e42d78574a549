set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'whatif/whatif_nics_mbw_mr.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'whatif_nics_mbw_mr: What-if (node with several NICs): osu_mbw_mr, 32 ranks on 2 nodes (16 per node, Open MPI''s default mapping), 16 pairs across the network, on cielo (one Gemini NIC(s) per node; with two, ranks on each package use the NIC of their package)'
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
plot 'whatif/whatif_nics_mbw_mr_32p_one.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 1 pt 1 ps 0.6 title 'openmpi osu_mbw_mr 32p on cielo (simulated)', \
  'whatif/whatif_nics_mbw_mr_32p_two.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi osu_mbw_mr 32p on whatif-cielo-2nic (simulated)'
