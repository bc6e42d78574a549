set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'seastar/fig3.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'seastar-portals, Fig. 3: Sandia SMB recv-side CPU availability (post-work-wait), 2 ranks on 2 nodes'
set xlabel 'message size (bytes)'
set ylabel 'CPU availability (%)'
plot 'seastar/fig3_smb_recv_native.csv' using (column('bytes')):(column('availability_pct')) with linespoints lc 1 pt 1 ps 0.6 title 'native smb_overhead 2p side=recv (simulated)', \
  'seastar/fig3_smb_recv_openmpi-cm.csv' using (column('bytes')):(column('availability_pct')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi-cm smb_overhead 2p side=recv (simulated)', \
  'seastar/fig3_smb_recv_openmpi-ob1.csv' using (column('bytes')):(column('availability_pct')) with linespoints lc 3 pt 1 ps 0.6 title 'openmpi-ob1 smb_overhead 2p side=recv (simulated)', \
  'seastar/fig3_smb_send_native.csv' using (column('bytes')):(column('availability_pct')) with linespoints lc 4 pt 1 ps 0.6 title 'native smb_overhead 2p side=send (simulated)', \
  'seastar/fig3_smb_send_openmpi-cm.csv' using (column('bytes')):(column('availability_pct')) with linespoints lc 5 pt 1 ps 0.6 title 'openmpi-cm smb_overhead 2p side=send (simulated)', \
  'seastar/fig3_smb_send_openmpi-ob1.csv' using (column('bytes')):(column('availability_pct')) with linespoints lc 6 pt 1 ps 0.6 title 'openmpi-ob1 smb_overhead 2p side=send (simulated)'
