set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'whatif/whatif_numa_multi_lat.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'whatif_numa_multi_lat: What-if (node model): osu_multi_lat, 16 ranks (8 pairs, rank i with rank i + 8) on one Cielo node (2 Magny-Cours packages x 2 dies x 4 cores), Open MPI, mapping: core (default = Open MPI 1.8''s map-by socket for more than 2 ranks: a pair is on one package, other die; map-by core: a pair is on two packages; map-by numa: a pair is on one die)'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'whatif/whatif_numa_multi_lat_16p_core.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 pt 1 ps 0.6 title 'openmpi osu_multi_lat 16p (whatif_numa_multi_lat_16p_core) (simulated)', \
  'whatif/whatif_numa_multi_lat_16p_default.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi osu_multi_lat 16p (whatif_numa_multi_lat_16p_default) (simulated)', \
  'whatif/whatif_numa_multi_lat_16p_numa.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 pt 1 ps 0.6 title 'openmpi osu_multi_lat 16p (whatif_numa_multi_lat_16p_numa) (simulated)'
