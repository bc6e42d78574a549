set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key at screen 0.012, screen 0.1163 left top reverse Left box opaque font ',9' spacing 0.9 maxrows 5
set logscale x 2
set logscale y
set grid
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set xtics ("1 B" 1, "4 B" 4, "16 B" 16, "64 B" 64, "256 B" 256, "1 KiB" 1024, "4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, "4 MiB" 4194304, "16 MiB" 16777216, "64 MiB" 67108864, "256 MiB" 268435456, "1 GiB" 1073741824)
set format y '%g'
set title 'slingshot-ex, What-if routing alltoall'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
set bmargin 9
set yrange [242.879 : 635015]
set ytics ("500" 500, "1000" 1000, "2000" 2000, "5000" 5000, "10000" 10000, "20000" 20000, "50000" 50000, "1e5" 100000, "2e5" 200000, "5e5" 500000)
set terminal svg size 900,679 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/what-if_routing_alltoall.svg.tmp'
plot 'slingshot/whatif_routing_minimal_alltoall_64k_4096p_74groups.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 1.4 title 'openmpi-linkx osu_alltoall pairwise 4096p routing=minimal (simulated)', \
  'slingshot/whatif_routing_minimal_alltoall_64p_8groups.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi-linkx osu_alltoall pairwise 64p routing=minimal (simulated)', \
  'slingshot/whatif_routing_ugal_alltoall_64k_4096p_74groups.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 dt 3 pt 4 ps 1.4 title 'openmpi-linkx osu_alltoall pairwise 4096p routing=ugal (simulated)', \
  'slingshot/whatif_routing_ugal_alltoall_64p_8groups.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 4 dt 4 pt 6 ps 0.7 title 'openmpi-linkx osu_alltoall pairwise 64p routing=ugal (simulated)', \
  'slingshot/whatif_routing_valiant_alltoall_64p_8groups.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 5 dt 5 pt 8 ps 0.7 title 'openmpi-linkx osu_alltoall pairwise 64p routing=valiant (simulated)'
