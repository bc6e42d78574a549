set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'seastar/fig4.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'seastar-portals, Fig. 4: Small-message rate (OSU streaming, osu_mbw_mr, window 64), 2 ranks on 2 nodes'
set xlabel 'message size (bytes)'
set ylabel 'message rate (messages/s)'
plot 'seastar/fig4_msgrate_native.csv' using (column('bytes')):(column('messages_per_s')) with linespoints lc 1 pt 1 ps 0.6 title 'native osu_mbw_mr 2p (simulated)', \
  'seastar/fig4_msgrate_openmpi-cm.csv' using (column('bytes')):(column('messages_per_s')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi-cm osu_mbw_mr 2p (simulated)', \
  'seastar/fig4_msgrate_openmpi-ob1.csv' using (column('bytes')):(column('messages_per_s')) with linespoints lc 3 pt 1 ps 0.6 title 'openmpi-ob1 osu_mbw_mr 2p (simulated)'
