set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key top left reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set logscale y
set grid
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set xtics ("1 B" 1, "4 B" 4, "16 B" 16, "64 B" 64, "256 B" 256, "1 KiB" 1024, "4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, "4 MiB" 4194304, "16 MiB" 16777216, "64 MiB" 67108864, "256 MiB" 268435456, "1 GiB" 1073741824)
set format y '%g'
set title 'qsnet-elan4, Fig. 7'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
set bmargin 9
set label 100 'The paper gives no data points for this figure; the model is checked against its statements below.' at screen 0.012, screen 0.0985 left front font ',9'
set label 101 'The paper on this figure, and whether the model''s reading of it holds:' at screen 0.012, screen 0.0776 left front font ',9'
set label 102 '- "The datatype engine adds about 0.4 us over a plain memcpy path (Fig. 7(a))." (holds)' at screen 0.012, screen 0.0567 left front font ',9'
set label 103 '- "The RDMA-read scheme has lower latency than the RDMA-write scheme for long messages: it saves a control packet (Fig. 7(b))." (holds)' at screen 0.012, screen 0.0358 left front font ',9'
set label 104 '- "Sending the rendezvous packet without inlined data improves latency at all sizes for both RDMA read and write." (holds)' at screen 0.012, screen 0.0149 left front font ',9'
set yrange [3.55571 : 22.9357]
set ytics ("4" 4, "5" 5, "7" 7, "10" 10, "15" 15, "20" 20)
set terminal svg size 900,670 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'qsnet/fig7.svg.tmp'
plot 'qsnet/fig7_read.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi-elan4 osu_latency 2p ptl_elan4_rdma=read (simulated)', \
  'qsnet/fig7_read_datatype.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi-elan4 osu_latency 2p ptl_elan4_datatype=on ptl_elan4_rdma=read (simulated)', \
  'qsnet/fig7_read_inline.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 dt 3 pt 4 ps 0.7 title 'openmpi-elan4 osu_latency 2p ptl_elan4_inline=on ptl_elan4_rdma=read (simulated)', \
  'qsnet/fig7_write.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 4 dt 4 pt 6 ps 0.7 title 'openmpi-elan4 osu_latency 2p ptl_elan4_rdma=write (simulated)', \
  'qsnet/fig7_write_datatype.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 5 dt 5 pt 8 ps 0.7 title 'openmpi-elan4 osu_latency 2p ptl_elan4_datatype=on ptl_elan4_rdma=write (simulated)', \
  'qsnet/fig7_write_inline.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 6 dt 1 pt 10 ps 0.7 title 'openmpi-elan4 osu_latency 2p ptl_elan4_inline=on ptl_elan4_rdma=write (simulated)'
