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
set title 'whatif_numa_multi_lat'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
set bmargin 6
set label 100 'What-if (node model): osu_multi_lat, 16 ranks (8 pairs, rank i with rank i + 8) on one Cielo node (2 Magny-Cours packages x 2 dies x 4 cores), Open' at screen 0.012, screen 0.0382 left front font ',9'
set label 101 'MPI, mapping' at screen 0.012, screen 0.0159 left front font ',9'
set yrange [0.339033 : 4016.84]
set ytics ("0.5" 0.5, "1" 1, "2" 2, "5" 5, "10" 10, "20" 20, "50" 50, "100" 100, "200" 200, "500" 500, "1000" 1000, "2000" 2000)
set terminal svg size 900,628 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'whatif/whatif_numa_multi_lat.svg.tmp'
plot 'whatif/whatif_numa_multi_lat_16p_core.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi osu_multi_lat 16p (whatif_numa_multi_lat_16p_core) (simulated)', \
  'whatif/whatif_numa_multi_lat_16p_default.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi osu_multi_lat 16p (whatif_numa_multi_lat_16p_default) (simulated)', \
  'whatif/whatif_numa_multi_lat_16p_numa.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 dt 3 pt 4 ps 0.7 title 'openmpi osu_multi_lat 16p (whatif_numa_multi_lat_16p_numa) (simulated)'
