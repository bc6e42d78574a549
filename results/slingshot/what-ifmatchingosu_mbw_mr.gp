set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'slingshot/what-ifmatchingosu_mbw_mr.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'slingshot-ex, What-if matching osu_mbw_mr: osu_mbw_mr, H2H inter-node, 2 Crusher nodes, Open MPI pml/cm + mtl/ofi over cxi alone, CXI tag matching in the NIC (FI_CXI_RX_MATCH_MODE=hardware, the default)'
set xlabel 'message size (bytes)'
set ylabel 'message rate (messages/s)'
plot 'slingshot/whatif_match_hw_osu_mbw_mr_inter_h2h_openmpi-cxi.csv' using (column('bytes')):(column('messages_per_s')) with linespoints lc 1 pt 1 ps 0.6 title 'openmpi-cxi osu_mbw_mr 2p on crusher (simulated)', \
  'slingshot/whatif_match_sw_osu_mbw_mr_inter_h2h_openmpi-cxi.csv' using (column('bytes')):(column('messages_per_s')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi-cxi osu_mbw_mr 2p on crusher-swmatch (simulated)'
