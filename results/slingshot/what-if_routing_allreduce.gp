set datafile separator ','
set key top left reverse Left box opaque font ',9' spacing 0.9
set grid
set format y '%g'
set title "slingshot-ex, What-if routing allreduce"
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
set xtics ('routing=minimal' 1, 'routing=ugal' 2)
set xrange [0.4 : 2.6]
set boxwidth 0.5
set yrange [0 : *]
set xlabel 'message size (bytes): 1 MiB'
set bmargin 6
set label 100 'What does a 1 MiB allreduce cost on all of Frontier, and what does the route policy change? osu_allreduce 1 MiB with Open MPI''s default algorithm' at screen 0.012, screen 0.0382 left front font ',9'
set label 101 '(coll/tuned v5 fixed decision: rabenseifner at 9,408 ranks and 1 MiB), one rank per node on all 9,408 nodes of the 74 dragonfly groups' at screen 0.012, screen 0.0159 left front font ',9'
set terminal unknown
plot 'slingshot/whatif_routing_minimal_allreduce_1m_9408p_74groups.csv' using (1):(column('latency_us')) with boxes lc 1 fs solid 0.4 border title 'openmpi-linkx osu_allreduce tuned 9408p routing=minimal (simulated)', \
  'slingshot/whatif_routing_minimal_allreduce_1m_9408p_74groups.csv' using (1):((column('latency_us')) / 2):(sprintf('%.4g', (column('latency_us')))) with labels font ',10' notitle, \
  'slingshot/whatif_routing_ugal_allreduce_1m_9408p_74groups.csv' using (2):(column('latency_us')) with boxes lc 2 fs solid 0.4 border title 'openmpi-linkx osu_allreduce tuned 9408p routing=ugal (simulated)', \
  'slingshot/whatif_routing_ugal_allreduce_1m_9408p_74groups.csv' using (2):((column('latency_us')) / 2):(sprintf('%.4g', (column('latency_us')))) with labels font ',10' notitle
y0 = GPVAL_Y_MIN; y1 = GPVAL_Y_MAX
set yrange [y0 : y0 + (y1 - y0) / 0.9200]
set terminal svg size 900,628 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/what-if_routing_allreduce.svg.tmp'
replot
