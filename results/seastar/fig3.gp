set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key top left reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set grid
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set xtics ("1 B" 1, "4 B" 4, "16 B" 16, "64 B" 64, "256 B" 256, "1 KiB" 1024, "4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, "4 MiB" 4194304, "16 MiB" 16777216, "64 MiB" 67108864, "256 MiB" 268435456, "1 GiB" 1073741824)
set format y '%g'
set title 'seastar-portals, Fig. 3: Sandia SMB'
set xlabel 'message size (bytes)'
set ylabel 'CPU availability (%)'
set bmargin 9
set label 100 'The paper gives no data points for this figure; the model is checked against its statements below.' at screen 0.012, screen 0.0985 left front font ',9'
set label 101 'The paper on this figure, and whether the model''s reading of it holds:' at screen 0.012, screen 0.0776 left front font ',9'
set label 102 '- "Receive-side CPU availability: CM stays high for very large messages; OB1 and Cray MPI drop sharply where eager switches to rendezvous." (holds)' at screen 0.012, screen 0.0567 left front font ',9'
set label 103 '- "Send-side CPU availability: Cray MPI slightly ahead for very small messages; OB1 slightly ahead between 1 KB and 10 KB." (fails)' at screen 0.012, screen 0.0358 left front font ',9'
set label 104 '- "Receive-side CPU availability: the CM transport has a slight advantage at small message sizes (Fig. 3(b))." (fails)' at screen 0.012, screen 0.0149 left front font ',9'
set yrange [0 : 103.728]
set terminal svg size 900,670 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'seastar/fig3.svg.tmp'
plot 'seastar/fig3_smb_recv_native.csv' using (column('bytes')):(column('availability_pct')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'native smb_overhead 2p side=recv (simulated)', \
  'seastar/fig3_smb_recv_openmpi-cm.csv' using (column('bytes')):(column('availability_pct')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi-cm smb_overhead 2p side=recv (simulated)', \
  'seastar/fig3_smb_recv_openmpi-ob1.csv' using (column('bytes')):(column('availability_pct')) with linespoints lc 3 dt 3 pt 4 ps 0.7 title 'openmpi-ob1 smb_overhead 2p side=recv (simulated)', \
  'seastar/fig3_smb_send_native.csv' using (column('bytes')):(column('availability_pct')) with linespoints lc 4 dt 4 pt 6 ps 0.7 title 'native smb_overhead 2p side=send (simulated)', \
  'seastar/fig3_smb_send_openmpi-cm.csv' using (column('bytes')):(column('availability_pct')) with linespoints lc 5 dt 5 pt 8 ps 0.7 title 'openmpi-cm smb_overhead 2p side=send (simulated)', \
  'seastar/fig3_smb_send_openmpi-ob1.csv' using (column('bytes')):(column('availability_pct')) with linespoints lc 6 dt 1 pt 10 ps 0.7 title 'openmpi-ob1 smb_overhead 2p side=send (simulated)'
