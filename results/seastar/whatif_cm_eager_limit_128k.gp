set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'seastar/whatif_cm_eager_limit_128k.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'seastar-portals, whatif_cm_eager_limit_128k: What-if: Fig. 2''s NetPIPE for Open MPI CM with the mtl/portals short/long cut-off raised from the paper''s 32K to 128 KiB (the later mtl_portals_component.c default). Messages up to 128 KiB then travel whole; only larger ones that arrive before their receive is posted are truncated at the catch-all entry and fetched with a Portals get after the match (counters mtl_unexpected_long, mtl_long_gets, seastar_truncated)'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'seastar/whatif_cm_eager_limit_128k.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 pt 1 ps 0.6 title 'openmpi-cm netpipe 2p mtl_portals_eager_limit=131072 (simulated)'
