set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output '/work/main/results/seastar/Fig. 2.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set title 'seastar/Fig. 2'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot '/work/main/results/seastar/fig2_netpipe_native.csv' using (column('bytes')):(column('latency_us')) with linespoints title 'native netpipe 2p', \
  '/work/main/results/seastar/Fig. 2.fig2_netpipe_native.ref.dat' using 1:2 with points pt 7 ps 1.5 title 'paper: native netpipe 2p', \
  '/work/main/results/seastar/fig2_netpipe_openmpi-cm.csv' using (column('bytes')):(column('latency_us')) with linespoints title 'openmpi-cm netpipe 2p', \
  '/work/main/results/seastar/Fig. 2.fig2_netpipe_openmpi-cm.ref.dat' using 1:2 with points pt 7 ps 1.5 title 'paper: openmpi-cm netpipe 2p', \
  '/work/main/results/seastar/fig2_netpipe_openmpi-ob1.csv' using (column('bytes')):(column('latency_us')) with linespoints title 'openmpi-ob1 netpipe 2p'
