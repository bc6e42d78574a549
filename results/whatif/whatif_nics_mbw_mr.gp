set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key bottom right reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set logscale y
set grid
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set xtics ("1 B" 1, "4 B" 4, "16 B" 16, "64 B" 64, "256 B" 256, "1 KiB" 1024, "4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, "4 MiB" 4194304, "16 MiB" 16777216, "64 MiB" 67108864, "256 MiB" 268435456, "1 GiB" 1073741824)
set format y '%g'
set title 'whatif_nics_mbw_mr: What-if (node with several NICs): osu_mbw_mr, 32 ranks on 2 nodes (16 per'."\n".'node, Open MPI''s default mapping), 16 pairs across the network'
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
set yrange [0.0151656 : 17.6299]
set ytics ("0.02" 0.02, "0.05" 0.05, "0.1" 0.1, "0.2" 0.2, "0.5" 0.5, "1" 1, "2" 2, "5" 5, "10" 10)
set terminal svg size 900,600 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'whatif/whatif_nics_mbw_mr.svg.tmp'
plot 'whatif/whatif_nics_mbw_mr_32p_one.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi osu_mbw_mr 32p on cielo (simulated)', \
  'whatif/whatif_nics_mbw_mr_32p_two.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi osu_mbw_mr 32p on whatif-cielo-2nic (simulated)'
