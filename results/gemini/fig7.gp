set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key bottom right reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set logscale y
set grid
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set format x '%.0f'
set format y '%g'
set title 'gemini-xe-xk, Fig. 7: MPI_Barrier loop, one rank per Cielo node'
set xlabel 'processes'
set ylabel 'latency (us)'
set bmargin 10
set label 100 'Filled circles: the paper''s values.' at screen 0.012, screen 0.1170 left front font ',9'
set label 101 'Bars: prediction interval of a predicted or held-out point, the range of the simulated value over the sampled estimated parameters (validation/README.md); a point they do not move has' at screen 0.012, screen 0.0965 left front font ',9'
set label 102 'no bar.' at screen 0.012, screen 0.0760 left front font ',9'
set label 103 'The paper on this figure, and whether the model''s reading of it holds:' at screen 0.012, screen 0.0556 left front font ',9'
set label 104 '- "The atomic (uGNI BCOL, fan-in/fan-out, radix 4) barrier beats the Cheetah p2p barrier over the uGNI BTL at every process count of Fig. 7; the margin at 64 processes is held out."' at screen 0.012, screen 0.0351 left front font ',9'
set label 105 '(fails)' at screen 0.012, screen 0.0146 left front font ',9'
set yrange [1.81234 : 28.9151]
set ytics ("2" 2, "3" 3, "4" 4, "5" 5, "7" 7, "10" 10, "15" 15, "20" 20)
set terminal svg size 900,684 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'gemini/fig7.svg.tmp'
plot 'gemini/fig7_barrier_cheetah_atomic.csv' using (column('ranks')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi cheetah-atomic (simulated)', \
  'gemini/fig7.fig7_barrier_cheetah_atomic.ref.dat' using 1:2 with points lc 1 pt 7 ps 1.6 title 'openmpi cheetah-atomic (paper)', \
  'gemini/fig7_barrier_cheetah_p2p.csv' using (column('ranks')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi cheetah-p2p (simulated)', \
  'gemini/fig7.fig7_barrier_cheetah_p2p.interval.dat' using 1:2:3:4 with yerrorbars lc 2 pt 6 ps 1.2 title 'openmpi cheetah-p2p (prediction interval: bars, see below)'
