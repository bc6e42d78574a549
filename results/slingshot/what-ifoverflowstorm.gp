set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'slingshot/what-ifoverflowstorm.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'slingshot-ex, What-if overflow storm: unexpected_storm: 127 ranks (16 Crusher nodes x 8, map-by ppr:1:l3cache) each send 8 messages to rank 0 at once, rank 0 posts its receives only then; Open MPI pml/cm + mtl/ofi over cxi (hardware matching), CXI overflow buffers 1 x 2 MiB (FI_CXI_OFLOW_BUF_MIN_POSTED=1)'
set xlabel 'message size (bytes)'
set ylabel 'send_us'
plot 'slingshot/whatif_oflow_1x2MiB_storm_128p_openmpi-cxi.csv' using (column('bytes')):(column('send_us')) with linespoints lc 1 pt 1 ps 0.6 title 'openmpi-cxi unexpected_storm 128p on crusher-oflow1 (simulated)', \
  'slingshot/whatif_oflow_3x2MiB_storm_128p_openmpi-cxi.csv' using (column('bytes')):(column('send_us')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi-cxi unexpected_storm 128p on crusher (simulated)'
