set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output '/work/main/results/seastar/Fig. 4.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set title 'seastar/Fig. 4'
set xlabel 'message size (bytes)'
set ylabel 'messages_per_s'
plot '/work/main/results/seastar/fig4_msgrate_native.csv' using (column('bytes')):(column('messages_per_s')) with linespoints title 'native osu_mbw_mr 2p', \
  '/work/main/results/seastar/fig4_msgrate_openmpi-cm.csv' using (column('bytes')):(column('messages_per_s')) with linespoints title 'openmpi-cm osu_mbw_mr 2p', \
  '/work/main/results/seastar/fig4_msgrate_openmpi-ob1.csv' using (column('bytes')):(column('messages_per_s')) with linespoints title 'openmpi-ob1 osu_mbw_mr 2p'
