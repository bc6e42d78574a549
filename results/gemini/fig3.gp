set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output '/work/main/results/gemini/fig3.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set title 'gemini/fig3'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot '/work/main/results/gemini/fig3_latency_2p_intra_native.csv' using (column('bytes')):(column('latency_us')) with linespoints title 'native osu_latency 2p', \
  '/work/main/results/gemini/fig3.fig3_latency_2p_intra_native.ref.dat' using 1:2 with points pt 7 ps 1.5 title 'paper: native osu_latency 2p', \
  '/work/main/results/gemini/fig3_latency_2p_intra_openmpi.csv' using (column('bytes')):(column('latency_us')) with linespoints title 'openmpi osu_latency 2p', \
  '/work/main/results/gemini/fig3.fig3_latency_2p_intra_openmpi.ref.dat' using 1:2 with points pt 7 ps 1.5 title 'paper: openmpi osu_latency 2p', \
  '/work/main/results/gemini/fig3_multi_lat_16p_intra_native.csv' using (column('bytes')):(column('latency_us')) with linespoints title 'native osu_multi_lat 16p', \
  '/work/main/results/gemini/fig3_multi_lat_16p_intra_openmpi.csv' using (column('bytes')):(column('latency_us')) with linespoints title 'openmpi osu_multi_lat 16p'
