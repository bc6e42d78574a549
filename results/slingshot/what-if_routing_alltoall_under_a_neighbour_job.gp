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
set title 'slingshot-ex, What-if routing alltoall under a neighbour job: osu_alltoall (coll/base'."\n".'pairwise), 64 ranks = 8 Frontier nodes x 8, one node in each of 8 dragonfly groups'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
set yrange [270.752 : 66810.2]
set ytics ("300" 300, "500" 500, "1000" 1000, "2000" 2000, "3000" 3000, "5000" 5000, "10000" 10000, "20000" 20000, "30000" 30000, "50000" 50000)
set terminal svg size 900,600 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/what-if_routing_alltoall_under_a_neighbour_job.svg.tmp'
plot 'slingshot/whatif_routing_minimal_alltoall_64p_8groups_neighbour.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi-linkx osu_alltoall pairwise 64p routing=minimal (simulated)', \
  'slingshot/whatif_routing_ugal_alltoall_64p_8groups_neighbour.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi-linkx osu_alltoall pairwise 64p routing=ugal (simulated)', \
  'slingshot/whatif_routing_valiant_alltoall_64p_8groups_neighbour.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 dt 3 pt 4 ps 0.7 title 'openmpi-linkx osu_alltoall pairwise 64p routing=valiant (simulated)'
