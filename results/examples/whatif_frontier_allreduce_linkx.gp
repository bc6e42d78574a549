set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key top left reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set logscale y
set grid
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set format x '%.0f'
set format y '%g'
set title 'whatif_frontier_allreduce_linkx'
set xlabel 'processes'
set ylabel 'latency (us)'
set bmargin 7
set label 100 'What does LINKx cost on a dragonfly bigger than Crusher''s? osu_allreduce 8 B (coll/base recursive doubling) on Frontier (74 dragonfly groups) at 512,' at screen 0.012, screen 0.0592 left front font ',9'
set label 101 '4,096 and 32,768 ranks, 8 ranks per node (one per L3), Open MPI pml/cm + mtl/ofi over LINKx (shm+cxi); 20 timed calls after 2 warm-up calls. Copy the' at screen 0.012, screen 0.0374 left front font ',9'
set label 102 'file with "stack": "native" (Cray MPICH) for the comparator' at screen 0.012, screen 0.0156 left front font ',9'
set yrange [23.2196 : 48.6859]
set ytics ("25" 25, "30" 30, "35" 35, "40" 40, "45" 45)
set terminal svg size 900,642 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'examples/whatif_frontier_allreduce_linkx.svg.tmp'
plot 'examples/whatif_frontier_allreduce_linkx.csv' using (column('ranks')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi-linkx osu_allreduce recursive_doubling (simulated)'
