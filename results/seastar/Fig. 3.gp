set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output '/work/main/results/seastar/Fig. 3.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set title 'seastar/Fig. 3'
set xlabel 'message size (bytes)'
set ylabel 'availability_pct'
plot '/work/main/results/seastar/fig3_smb_recv_native.csv' using (column('bytes')):(column('availability_pct')) with linespoints title 'native smb_overhead 2p', \
  '/work/main/results/seastar/fig3_smb_recv_openmpi-cm.csv' using (column('bytes')):(column('availability_pct')) with linespoints title 'openmpi-cm smb_overhead 2p', \
  '/work/main/results/seastar/fig3_smb_recv_openmpi-ob1.csv' using (column('bytes')):(column('availability_pct')) with linespoints title 'openmpi-ob1 smb_overhead 2p', \
  '/work/main/results/seastar/fig3_smb_send_native.csv' using (column('bytes')):(column('availability_pct')) with linespoints title 'native smb_overhead 2p', \
  '/work/main/results/seastar/fig3_smb_send_openmpi-cm.csv' using (column('bytes')):(column('availability_pct')) with linespoints title 'openmpi-cm smb_overhead 2p', \
  '/work/main/results/seastar/fig3_smb_send_openmpi-ob1.csv' using (column('bytes')):(column('availability_pct')) with linespoints title 'openmpi-ob1 smb_overhead 2p'
