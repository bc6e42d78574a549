set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key top left reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set logscale y
set grid
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set xtics ("1 B" 1, "4 B" 4, "16 B" 16, "64 B" 64, "256 B" 256, "1 KiB" 1024, "4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, "4 MiB" 4194304, "16 MiB" 16777216, "64 MiB" 67108864, "256 MiB" 268435456, "1 GiB" 1073741824)
set format y '%g'
set title 'seastar-portals, whatif_cm_eager_limit_128k'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
set bmargin 7
set label 100 'What-if: Fig. 2''s NetPIPE for Open MPI CM with the mtl/portals short/long cut-off raised from the paper''s 32K to 128 KiB (the later' at screen 0.012, screen 0.0592 left front font ',9'
set label 101 'mtl_portals_component.c default). Messages up to 128 KiB then travel whole; only larger ones that arrive before their receive is posted are truncated' at screen 0.012, screen 0.0374 left front font ',9'
set label 102 'at the catch-all entry and fetched with a Portals get after the match (counters mtl_unexpected_long, mtl_long_gets, seastar_truncated)' at screen 0.012, screen 0.0156 left front font ',9'
set yrange [3.50384 : 5892.63]
set ytics ("5" 5, "10" 10, "20" 20, "50" 50, "100" 100, "200" 200, "500" 500, "1000" 1000, "2000" 2000, "5000" 5000)
set terminal svg size 900,642 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'seastar/whatif_cm_eager_limit_128k.svg.tmp'
plot 'seastar/whatif_cm_eager_limit_128k.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi-cm netpipe 2p mtl_portals_eager_limit=131072 (simulated)'
