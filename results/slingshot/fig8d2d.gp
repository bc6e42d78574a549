set terminal svg size 900,600 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/fig8d2d.svg.tmp'
set datafile separator ','
set key top left reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set logscale y
set grid
set xtics ("1 B" 1, "4 B" 4, "16 B" 16, "64 B" 64, "256 B" 256, "1 KiB" 1024, "4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, "4 MiB" 4194304, "16 MiB" 16777216, "64 MiB" 67108864, "256 MiB" 268435456, "1 GiB" 1073741824)
set format y '%g'
set title "slingshot-ex, Fig. 8 D2D: osu_bcast, D2D, 512 ranks = 64 Crusher nodes x 8 (one per L3), Cray\nMPICH (CXI hardware matching; own shared memory and GPU IPC); bcast as the library chooses it\nby default (the paper: 'default settings for all the collectives'): MPICH v3.4a2's default\nselection, Cray MPICH 8.1.x's ANL base (collectives/decision/mpich_default.json: on this\nnode-aware communicator the ch4 composition at every size: root to its node leader, bcast among\nthe 64 node leaders, bcast within each node of 8, each stage binomial below 12 KiB, then\nscatter + recursive-doubling allgather, scatter + ring from 512 KiB); 20 timed calls per size\n(OSU: 1000 / 100) to keep reproduce short"
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'slingshot/fig8_bcast_512p_d2d_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'native osu_bcast mpich 512p (simulated)', \
  'slingshot/fig8_bcast_512p_d2d_openmpi-cxi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'openmpi-cxi osu_bcast tuned 512p (simulated)', \
  'slingshot/fig8_bcast_512p_d2d_openmpi-linkx.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 dt 3 pt 4 ps 0.7 title 'openmpi-linkx osu_bcast tuned 512p (simulated)'
