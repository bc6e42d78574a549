set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key at screen 0.012, screen 0.2602 left top reverse Left box opaque font ',9' spacing 0.9 maxrows 10
set logscale x 2
set logscale y
set grid
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set xtics ("1 B" 1, "4 B" 4, "16 B" 16, "64 B" 64, "256 B" 256, "1 KiB" 1024, "4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, "4 MiB" 4194304, "16 MiB" 16777216, "64 MiB" 67108864, "256 MiB" 268435456, "1 GiB" 1073741824)
set format y '%g'
set title 'slingshot-ex, public native bandwidth'
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
set bmargin 18
set label 100 'Filled circles keyed "public measurement": measurements of the same system published elsewhere (the paper quotes no numbers here).' at screen 0.012, screen 0.0814 left front font ',9'
set label 101 'Bars: prediction interval of a predicted or held-out point, the range of the simulated value over the sampled estimated parameters (validation/README.md); a point they do not move has' at screen 0.012, screen 0.0641 left front font ',9'
set label 102 'no bar.' at screen 0.012, screen 0.0469 left front font ',9'
set label 103 'Curves "osu_bw 2p buffer=device" and "osu_bw 2p buffer=host (public_osu_bw_inter_host_native)" coincide (within 0.0024 % at every point; each later' at screen 0.012, screen 0.0296 left front font ',9'
set label 104 'one drawn with a larger marker).' at screen 0.012, screen 0.0123 left front font ',9'
set yrange [0.00211503 : 1253.08]
set ytics ("0.003" 0.003, "0.01" 0.01, "0.03" 0.03, "0.1" 0.1, "0.3" 0.3, "1" 1, "3" 3, "10" 10, "30" 30, "100" 100, "300" 300, "1000" 1000)
set terminal svg size 900,811 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/public_native_bandwidth.svg.tmp'
plot 'slingshot/public_mbw_mr_intra_device_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 1 dt 1 pt 1 ps 1.4 title 'native osu_mbw_mr 8p (simulated)', \
  'slingshot/public_native_bandwidth.public_mbw_mr_intra_device_native.ref.dat' using 1:2 with points lc 1 pt 7 ps 1.6 title 'native osu_mbw_mr 8p (public measurement)', \
  'slingshot/public_native_bandwidth.public_mbw_mr_intra_device_native.interval.dat' using 1:2:3:4 with yerrorbars lc 1 pt 6 ps 1.2 title 'native osu_mbw_mr 8p (prediction interval: bars, see below)', \
  'slingshot/public_osu_bw_inter_device_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 2 dt 2 pt 2 ps 1.4 title 'native osu_bw 2p buffer=device (simulated)', \
  'slingshot/public_native_bandwidth.public_osu_bw_inter_device_native.ref.dat' using 1:2 with points lc 2 pt 7 ps 1.6 title 'native osu_bw 2p buffer=device (public measurement)', \
  'slingshot/public_native_bandwidth.public_osu_bw_inter_device_native.interval.dat' using 1:2:3:4 with yerrorbars lc 2 pt 6 ps 1.2 title 'native osu_bw 2p buffer=device (prediction interval: bars, see below)', \
  'slingshot/public_osu_bw_inter_host_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 3 dt 3 pt 4 ps 2 title 'native osu_bw 2p buffer=host (public_osu_bw_inter_host_native) (simulated)', \
  'slingshot/public_native_bandwidth.public_osu_bw_inter_host_native.ref.dat' using 1:2 with points lc 3 pt 7 ps 1.6 title 'native osu_bw 2p buffer=host (public_osu_bw_inter_host_native) (public measurement)', \
  'slingshot/public_osu_bw_intra_host_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 4 dt 4 pt 6 ps 0.7 title 'native osu_bw 2p buffer=host (public_osu_bw_intra_host_native) (simulated)', \
  'slingshot/public_native_bandwidth.public_osu_bw_intra_host_native.ref.dat' using 1:2 with points lc 4 pt 7 ps 1.6 title 'native osu_bw 2p buffer=host (public_osu_bw_intra_host_native) (public measurement)'
