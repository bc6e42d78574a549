set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key at screen 0.012, screen 0.2718 left top reverse Left box opaque font ',9' spacing 0.9 maxrows 11
set logscale x 2
set logscale y
set grid
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set xtics ("1 B" 1, "4 B" 4, "16 B" 16, "64 B" 64, "256 B" 256, "1 KiB" 1024, "4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, "4 MiB" 4194304, "16 MiB" 16777216, "64 MiB" 67108864, "256 MiB" 268435456, "1 GiB" 1073741824)
set format y '%g'
set title 'qsnet-elan4, Table 1: RDMA-read latency at 4 B and 4 KB'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
set bmargin 18
set label 100 'Filled circles: the paper''s values.' at screen 0.012, screen 0.0801 left front font ',9'
set label 101 'Bars: prediction interval of a predicted or held-out point, the range of the simulated value over the sampled estimated parameters (validation/README.md); a point they do not move has' at screen 0.012, screen 0.0631 left front font ',9'
set label 102 'no bar.' at screen 0.012, screen 0.0461 left front font ',9'
set label 103 'The paper on this figure, and whether the model''s reading of it holds:' at screen 0.012, screen 0.0291 left front font ',9'
set label 104 '- "Basic < Interrupt < One thread < Two threads at both 4 B and 4 KB (Table 1; the two-thread column is held out)." (fails)' at screen 0.012, screen 0.0121 left front font ',9'
set yrange [3.41297 : 54.1825]
set ytics ("4" 4, "5" 5, "7" 7, "10" 10, "15" 15, "20" 20, "30" 30, "40" 40, "50" 50)
set terminal svg size 900,824 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'qsnet/table1.svg.tmp'
plot 'qsnet/table1_basic.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi-elan4 osu_latency 2p ptl_elan4_progress=basic ptl_elan4_rdma=read (simulated)', \
  'qsnet/table1.table1_basic.ref.dat' using 1:2 with points lc 1 pt 7 ps 1.6 title 'openmpi-elan4 osu_latency 2p ptl_elan4_progress=basic ptl_elan4_rdma=read (paper)', \
  'qsnet/table1.table1_basic.interval.dat' using 1:2:3:4 with yerrorbars lc 1 pt 6 ps 1.2 title 'openmpi-elan4 osu_latency 2p ptl_elan4_progress=basic ptl_elan4_rdma=read (prediction interval: bars, see below)', \
  'qsnet/table1_interrupt.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi-elan4 osu_latency 2p ptl_elan4_progress=interrupt ptl_elan4_rdma=read (simulated)', \
  'qsnet/table1.table1_interrupt.ref.dat' using 1:2 with points lc 2 pt 7 ps 1.6 title 'openmpi-elan4 osu_latency 2p ptl_elan4_progress=interrupt ptl_elan4_rdma=read (paper)', \
  'qsnet/table1.table1_interrupt.interval.dat' using 1:2:3:4 with yerrorbars lc 2 pt 6 ps 1.2 title 'openmpi-elan4 osu_latency 2p ptl_elan4_progress=interrupt ptl_elan4_rdma=read (prediction interval: bars, see below)', \
  'qsnet/table1_one_thread.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 dt 3 pt 4 ps 0.7 title 'openmpi-elan4 osu_latency 2p ptl_elan4_progress=one_thread ptl_elan4_rdma=read (simulated)', \
  'qsnet/table1.table1_one_thread.ref.dat' using 1:2 with points lc 3 pt 7 ps 1.6 title 'openmpi-elan4 osu_latency 2p ptl_elan4_progress=one_thread ptl_elan4_rdma=read (paper)', \
  'qsnet/table1.table1_one_thread.interval.dat' using 1:2:3:4 with yerrorbars lc 3 pt 6 ps 1.2 title 'openmpi-elan4 osu_latency 2p ptl_elan4_progress=one_thread ptl_elan4_rdma=read (prediction interval: bars, see below)', \
  'qsnet/table1_two_threads.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 4 dt 4 pt 6 ps 0.7 title 'openmpi-elan4 osu_latency 2p ptl_elan4_progress=two_threads ptl_elan4_rdma=read (simulated)', \
  'qsnet/table1.table1_two_threads.interval.dat' using 1:2:3:4 with yerrorbars lc 4 pt 6 ps 1.2 title 'openmpi-elan4 osu_latency 2p ptl_elan4_progress=two_threads ptl_elan4_rdma=read (prediction interval: bars, see below)'
