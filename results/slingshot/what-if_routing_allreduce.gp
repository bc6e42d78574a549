set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key at screen 0.012, screen 0.1031 left top reverse Left box opaque font ',9' spacing 0.9 maxrows 2
set grid
set format y '%g'
set title 'slingshot-ex, What-if routing allreduce'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
set xtics ('routing=minimal' 1, 'routing=ugal' 2)
set xrange [0.4 : 2.6]
set boxwidth 0.5
set yrange [0 : *]
set offsets 0, 0, graph 0.06, 0
set xlabel 'message size (bytes): 1 MiB'
set bmargin 9
set label 100 'What does a 1 MiB allreduce cost on all of Frontier, and what does the route policy change? osu_allreduce 1 MiB with Open MPI''s default algorithm' at screen 0.012, screen 0.0359 left front font ',9'
set label 101 '(coll/tuned v5 fixed decision: rabenseifner at 9,408 ranks and 1 MiB), one rank per node on all 9,408 nodes of the 74 dragonfly groups' at screen 0.012, screen 0.0149 left front font ',9'
set terminal svg size 900,669 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/what-if_routing_allreduce.svg.tmp'
plot 'slingshot/whatif_routing_minimal_allreduce_1m_9408p_74groups.csv' using (1):(column('latency_us')) with boxes lc 1 fs solid 0.4 border title 'openmpi-linkx osu_allreduce tuned 9408p routing=minimal (simulated)', \
  'slingshot/whatif_routing_minimal_allreduce_1m_9408p_74groups.csv' using (1):((column('latency_us')) / 2):(sprintf('%.4g', (column('latency_us')))) with labels font ',10' notitle, \
  'slingshot/whatif_routing_ugal_allreduce_1m_9408p_74groups.csv' using (2):(column('latency_us')) with boxes lc 2 fs solid 0.4 border title 'openmpi-linkx osu_allreduce tuned 9408p routing=ugal (simulated)', \
  'slingshot/whatif_routing_ugal_allreduce_1m_9408p_74groups.csv' using (2):((column('latency_us')) / 2):(sprintf('%.4g', (column('latency_us')))) with labels font ',10' notitle
