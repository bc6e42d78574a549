set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'gemini/fig4.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'gemini-xe-xk, Fig. 4: osu_bibw, 2 ranks on one Cielo node'
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
plot 'gemini/fig4_bibw_2p_intra_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 1 pt 1 ps 0.6 title 'native osu_bibw 2p (simulated)', \
  'gemini/fig4.fig4_bibw_2p_intra_native.ref.dat' using 1:2 with points lc 1 pt 7 ps 1.6 title 'native osu_bibw 2p (paper)', \
  'gemini/fig4_bibw_2p_intra_openmpi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi osu_bibw 2p (simulated)', \
  'gemini/fig4.fig4_bibw_2p_intra_openmpi.ref.dat' using 1:2 with points lc 2 pt 7 ps 1.6 title 'openmpi osu_bibw 2p (paper)', \
  'gemini/fig4_mbw_mr_16p_intra_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 3 pt 1 ps 0.6 title 'native osu_mbw_mr 16p (simulated)', \
  'gemini/fig4_mbw_mr_16p_intra_openmpi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints lc 4 pt 1 ps 0.6 title 'openmpi osu_mbw_mr 16p (simulated)'
