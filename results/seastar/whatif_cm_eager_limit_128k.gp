set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output '/work/main/results/seastar/whatif_cm_eager_limit_128k.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set title 'seastar/whatif_cm_eager_limit_128k'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot '/work/main/results/seastar/whatif_cm_eager_limit_128k.csv' using (column('bytes')):(column('latency_us')) with linespoints title 'openmpi-cm netpipe 2p'
