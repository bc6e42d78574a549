set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'slingshot/fig8h2h.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'slingshot-ex, Fig. 8 H2H: osu_bcast, H2H, 512 ranks = 64 Crusher nodes x 8 (one per L3), Cray MPICH (CXI hardware matching; own shared memory and GPU IPC); bcast as the library chooses it by default (the paper: ''default settings for all the collectives''): MPICH v3.4a2''s default selection, Cray MPICH 8.1.x''s ANL base (collectives/decision/mpich_default.json: on this node-aware communicator the ch4 composition at every size: root to its node leader, bcast among the 64 node leaders, bcast within each node of 8, each stage binomial below 12 KiB, then scatter + recursive-doubling allgather, scatter + ring from 512 KiB); 20 timed calls per size (OSU: 1000 / 100) to keep reproduce short'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'slingshot/fig8_bcast_512p_h2h_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 pt 1 ps 0.6 title 'native osu_bcast mpich 512p (simulated)', \
  'slingshot/fig8_bcast_512p_h2h_openmpi-cxi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi-cxi osu_bcast tuned 512p (simulated)', \
  'slingshot/fig8_bcast_512p_h2h_openmpi-linkx.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 pt 1 ps 0.6 title 'openmpi-linkx osu_bcast tuned 512p (simulated)'
