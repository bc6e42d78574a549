set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output '/work/main/results/gemini/fig4.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set title 'gemini/fig4'
set xlabel 'message size (bytes)'
set ylabel 'bandwidth (GB/s)'
plot '/work/main/results/gemini/fig4_bibw_2p_intra_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints title 'native osu_bibw 2p', \
  '/work/main/results/gemini/fig4.fig4_bibw_2p_intra_native.ref.dat' using 1:2 with points pt 7 ps 1.5 title 'paper: native osu_bibw 2p', \
  '/work/main/results/gemini/fig4_bibw_2p_intra_openmpi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints title 'openmpi osu_bibw 2p', \
  '/work/main/results/gemini/fig4.fig4_bibw_2p_intra_openmpi.ref.dat' using 1:2 with points pt 7 ps 1.5 title 'paper: openmpi osu_bibw 2p', \
  '/work/main/results/gemini/fig4_mbw_mr_16p_intra_native.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints title 'native osu_mbw_mr 16p', \
  '/work/main/results/gemini/fig4_mbw_mr_16p_intra_openmpi.csv' using (column('bytes')):(column('bandwidth_GBps')) with linespoints title 'openmpi osu_mbw_mr 16p'
