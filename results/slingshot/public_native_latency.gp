set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key at screen 0.012, screen 0.1814 left top reverse Left box opaque font ',9' spacing 0.9 maxrows 6
set grid
set format y '%g'
set title 'slingshot-ex, public native latency: osu_multi_lat 8 pairs across 2 nodes'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
set xtics ('buffer=device' 1, 'buffer=host' 2)
set xrange [0.4 : 2.6]
set boxwidth 0.5
set yrange [0 : *]
set offsets 0, 0, graph 0.06, 0
set xlabel 'message size (bytes): 8 B'
set bmargin 13
set label 100 'Filled circles keyed "public measurement": measurements of the same system published elsewhere (the paper quotes no numbers here).' at screen 0.012, screen 0.0518 left front font ',9'
set label 101 'Bars: prediction interval of a predicted or held-out point, the range of the simulated value over the sampled estimated parameters (validation/README.md); a point they do not move has' at screen 0.012, screen 0.0327 left front font ',9'
set label 102 'no bar.' at screen 0.012, screen 0.0136 left front font ',9'
set terminal svg size 900,733 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/public_native_latency.svg.tmp'
plot 'slingshot/public_multi_lat_16p_inter_device_native.csv' using (1):(column('latency_us')) with boxes lc 1 fs solid 0.4 border title 'native osu_multi_lat 16p buffer=device (simulated)', \
  'slingshot/public_multi_lat_16p_inter_device_native.csv' using (1):((column('latency_us')) / 2):(sprintf('%.4g', (column('latency_us')))) with labels font ',10' notitle, \
  'slingshot/public_native_latency.public_multi_lat_16p_inter_device_native.ref.dat' using (1):2 with points lc 1 pt 7 ps 1.6 title 'native osu_multi_lat 16p buffer=device (public measurement)', \
  'slingshot/public_native_latency.public_multi_lat_16p_inter_device_native.interval.dat' using (1):2:3:4 with yerrorbars lc 1 pt 6 ps 1.2 title 'native osu_multi_lat 16p buffer=device (prediction interval: bars, see below)', \
  'slingshot/public_multi_lat_16p_inter_host_native.csv' using (2):(column('latency_us')) with boxes lc 2 fs solid 0.4 border title 'native osu_multi_lat 16p buffer=host (simulated)', \
  'slingshot/public_multi_lat_16p_inter_host_native.csv' using (2):((column('latency_us')) / 2):(sprintf('%.4g', (column('latency_us')))) with labels font ',10' notitle, \
  'slingshot/public_native_latency.public_multi_lat_16p_inter_host_native.ref.dat' using (2):2 with points lc 2 pt 7 ps 1.6 title 'native osu_multi_lat 16p buffer=host (public measurement)', \
  'slingshot/public_native_latency.public_multi_lat_16p_inter_host_native.interval.dat' using (2):2:3:4 with yerrorbars lc 2 pt 6 ps 1.2 title 'native osu_multi_lat 16p buffer=host (prediction interval: bars, see below)'
