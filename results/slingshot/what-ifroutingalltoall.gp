set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'slingshot/what-ifroutingalltoall.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'slingshot-ex, What-if routing alltoall: osu_alltoall (coll/base pairwise), 64 ranks = 8 Frontier nodes x 8, one node in each of 8 dragonfly groups (every message crosses a global link), route policy minimal'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'slingshot/whatif_routing_minimal_alltoall_64p_8groups.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 pt 1 ps 0.6 title 'openmpi-linkx osu_alltoall pairwise 64p routing=minimal (simulated)', \
  'slingshot/whatif_routing_ugal_alltoall_64p_8groups.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi-linkx osu_alltoall pairwise 64p routing=ugal (simulated)', \
  'slingshot/whatif_routing_valiant_alltoall_64p_8groups.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 pt 1 ps 0.6 title 'openmpi-linkx osu_alltoall pairwise 64p routing=valiant (simulated)'
