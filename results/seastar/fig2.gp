set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'seastar/fig2.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'seastar-portals, Fig. 2: NetPIPE half round-trip latency and bandwidth, 2 ranks on 2 Red Storm nodes'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'seastar/fig2_netpipe_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 pt 1 ps 0.6 title 'native netpipe 2p (simulated)', \
  'seastar/fig2.fig2_netpipe_native.ref.dat' using 1:2 with points lc 1 pt 7 ps 1.6 title 'native netpipe 2p (paper)', \
  'seastar/fig2_netpipe_openmpi-cm.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi-cm netpipe 2p (simulated)', \
  'seastar/fig2.fig2_netpipe_openmpi-cm.ref.dat' using 1:2 with points lc 2 pt 7 ps 1.6 title 'openmpi-cm netpipe 2p (paper)', \
  'seastar/fig2_netpipe_openmpi-ob1.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 pt 1 ps 0.6 title 'openmpi-ob1 netpipe 2p (simulated)', \
  'seastar/fig2.fig2_netpipe_openmpi-ob1.interval.dat' using 1:2:3:4 with yerrorbars lc 3 pt 6 ps 1.2 title 'openmpi-ob1 netpipe 2p (prediction interval)'
