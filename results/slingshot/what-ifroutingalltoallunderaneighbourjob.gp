set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'slingshot/what-ifroutingalltoallunderaneighbourjob.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'slingshot-ex, What-if routing alltoall under a neighbour job: osu_alltoall (coll/base pairwise), 64 ranks = 8 Frontier nodes x 8, one node in each of 8 dragonfly groups, route policy minimal, Open MPI over LINKx; beside it a congesting neighbour job on 32 other nodes, 16 in group 0 (nodes 4-19) and 16 in group 1 (nodes 132-147), each node of one group streaming to its partner in the other (pattern pairs, 2 transfers per pair: 64 endless transfers between groups 0 and 1)'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'slingshot/whatif_routing_minimal_alltoall_64p_8groups_neighbour.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 pt 1 ps 0.6 title 'openmpi-linkx osu_alltoall pairwise 64p routing=minimal (simulated)', \
  'slingshot/whatif_routing_ugal_alltoall_64p_8groups_neighbour.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi-linkx osu_alltoall pairwise 64p routing=ugal (simulated)', \
  'slingshot/whatif_routing_valiant_alltoall_64p_8groups_neighbour.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 pt 1 ps 0.6 title 'openmpi-linkx osu_alltoall pairwise 64p routing=valiant (simulated)'
