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
set title 'slingshot-ex, What-if matching osu_latency: osu_latency, H2H inter-node, 2 Crusher nodes, Open'."\n".'MPI pml/cm + mtl/ofi over cxi alone'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
set yrange [1.57118 : 57.3747]
set ytics ("2" 2, "3" 3, "5" 5, "10" 10, "20" 20, "30" 30, "50" 50)
set terminal svg size 900,600 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/what-if_matching_osu_latency.svg.tmp'
plot 'slingshot/whatif_match_hw_osu_latency_inter_h2h_openmpi-cxi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi-cxi osu_latency 2p on crusher (simulated)', \
  'slingshot/whatif_match_sw_osu_latency_inter_h2h_openmpi-cxi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi-cxi osu_latency 2p on crusher-swmatch (simulated)'
