set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'whatif/whatif_topology_latency.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'whatif_topology_latency: What-if (platform seams): osu_latency between two far-apart nodes (node 0 and node 4447) with Open MPI (pml/ob1 + btl/ugni) and Cielo''s node, NIC and software parameters, on the machine whatif-gemini-dragonfly (dragonfly topology, its own route policy)'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'whatif/whatif_topology_latency_dragonfly.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 pt 1 ps 0.6 title 'openmpi osu_latency 2p on whatif-gemini-dragonfly (simulated)', \
  'whatif/whatif_topology_latency_fattree.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi osu_latency 2p on whatif-gemini-fattree (simulated)', \
  'whatif/whatif_topology_latency_torus.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 pt 1 ps 0.6 title 'openmpi osu_latency 2p on cielo (simulated)'
