set terminal svg size 900,600 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/publicnative.svg.tmp'
set datafile separator ','
set key top left reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set logscale y
set grid
set xtics ("1 B" 1, "4 B" 4, "16 B" 16, "64 B" 64, "256 B" 256, "1 KiB" 1024, "4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, "4 MiB" 4194304, "16 MiB" 16777216, "64 MiB" 67108864, "256 MiB" 268435456, "1 GiB" 1073741824)
set format y '%g'
set title "slingshot-ex, public native: osu_multi_lat 8 pairs across 2 nodes, GPU (LUMI): Cray MPICH on\ncrusher, compared with hardware-sources.md §2d"
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'slingshot/public_multi_lat_16p_inter_device_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'native osu_multi_lat 16p buffer=device (simulated)', \
  'slingshot/publicnative.public_multi_lat_16p_inter_device_native.ref.dat' using 1:2 with points lc 1 pt 7 ps 1.6 title 'native osu_multi_lat 16p buffer=device (paper)', \
  'slingshot/publicnative.public_multi_lat_16p_inter_device_native.interval.dat' using 1:2:3:4 with yerrorbars lc 1 pt 6 ps 1.2 title 'native osu_multi_lat 16p buffer=device (prediction interval: range over the sampled parameters)', \
  'slingshot/public_multi_lat_16p_inter_host_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'native osu_multi_lat 16p buffer=host (simulated)', \
  'slingshot/publicnative.public_multi_lat_16p_inter_host_native.ref.dat' using 1:2 with points lc 2 pt 7 ps 1.6 title 'native osu_multi_lat 16p buffer=host (paper)', \
  'slingshot/publicnative.public_multi_lat_16p_inter_host_native.interval.dat' using 1:2:3:4 with yerrorbars lc 2 pt 6 ps 1.2 title 'native osu_multi_lat 16p buffer=host (prediction interval: range over the sampled parameters)', \
  'slingshot/public_osu_bw_inter_device_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 dt 3 pt 4 ps 0.7 title 'native osu_bw 2p buffer=device (simulated)', \
  'slingshot/publicnative.public_osu_bw_inter_device_native.ref.dat' using 1:2 with points lc 3 pt 7 ps 1.6 title 'native osu_bw 2p buffer=device (paper)', \
  'slingshot/publicnative.public_osu_bw_inter_device_native.interval.dat' using 1:2:3:4 with yerrorbars lc 3 pt 6 ps 1.2 title 'native osu_bw 2p buffer=device (prediction interval: range over the sampled parameters)', \
  'slingshot/public_osu_bw_inter_host_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 4 dt 4 pt 6 ps 0.7 title 'native osu_bw 2p buffer=host (public_osu_bw_inter_host_native) (simulated)', \
  'slingshot/publicnative.public_osu_bw_inter_host_native.ref.dat' using 1:2 with points lc 4 pt 7 ps 1.6 title 'native osu_bw 2p buffer=host (public_osu_bw_inter_host_native) (paper)', \
  'slingshot/public_osu_bw_intra_host_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 5 dt 5 pt 8 ps 0.7 title 'native osu_bw 2p buffer=host (public_osu_bw_intra_host_native) (simulated)', \
  'slingshot/publicnative.public_osu_bw_intra_host_native.ref.dat' using 1:2 with points lc 5 pt 7 ps 1.6 title 'native osu_bw 2p buffer=host (public_osu_bw_intra_host_native) (paper)', \
  'slingshot/publicnative.public_osu_bw_intra_host_native.interval.dat' using 1:2:3:4 with yerrorbars lc 5 pt 6 ps 1.2 title 'native osu_bw 2p buffer=host (public_osu_bw_intra_host_native) (prediction interval: range over the sampled parameters)'
