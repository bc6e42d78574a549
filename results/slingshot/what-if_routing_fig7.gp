set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key top left reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set logscale y
set grid
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set xtics ("1 B" 1, "2 B" 2, "4 B" 4, "8 B" 8, "16 B" 16, "32 B" 32, "64 B" 64, "128 B" 128, "256 B" 256, "512 B" 512, "1 KiB" 1024, "2 KiB" 2048, "4 KiB" 4096, "8 KiB" 8192, "16 KiB" 16384, "32 KiB" 32768, "64 KiB" 65536, "128 KiB" 131072, "256 KiB" 262144, "512 KiB" 524288, "1 MiB" 1048576, "2 MiB" 2097152, "4 MiB" 4194304, "8 MiB" 8388608, "16 MiB" 16777216, "32 MiB" 33554432, "64 MiB" 67108864, "128 MiB" 134217728, "256 MiB" 268435456, "512 MiB" 536870912, "1 GiB" 1073741824)
set format y '%g'
set title 'slingshot-ex, What-if routing Fig. 7: Fig. 7 H2H''s pairwise osu_alltoall for Open MPI over'."\n".'LINKx (512 ranks = 64 Crusher nodes x 8, 4 nodes a switch'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
set yrange [2055.39 : 668057]
set ytics ("5000" 5000, "10000" 10000, "20000" 20000, "50000" 50000, "1e5" 100000, "2e5" 200000, "5e5" 500000)
set terminal svg size 900,600 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/what-if_routing_fig7.svg.tmp'
plot 'slingshot/whatif_routing_minimal_fig7_alltoall_512p_h2h_openmpi-linkx.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi-linkx osu_alltoall pairwise 512p routing=minimal (simulated)', \
  'slingshot/whatif_routing_ugal_fig7_alltoall_512p_h2h_openmpi-linkx.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi-linkx osu_alltoall pairwise 512p routing=ugal (simulated)'
