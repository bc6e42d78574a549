set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'slingshot/fig7d2d.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'slingshot-ex, Fig. 7 D2D: osu_alltoall, D2D, 512 ranks = 64 Crusher nodes x 8 (one per L3), Cray MPICH (CXI hardware matching; own shared memory and GPU IPC); coll/base alltoall pairwise for every stack: both libraries'' default at 1 MiB; at 1-256 B their defaults (modified Bruck) run in the ''_defaults'' scenario of the same figure; at 4 KiB and 64 KiB Open MPI''s default (linear_sync, every request at once) is not run, for its cost; sizes 1 B .. 1 MiB in powers of 16 (OSU: powers of 2) and OSU''s iteration counts (1000 + 200 warm-up up to 8 KiB, 100 + 10 above) with the steady-state cutoff (benchmarks/osu_coll.cpp)'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'slingshot/fig7_alltoall_512p_d2d_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 pt 1 ps 0.6 title 'native osu_alltoall pairwise 512p (simulated)', \
  'slingshot/fig7_alltoall_512p_d2d_native_defaults.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 pt 1 ps 0.6 title 'native osu_alltoall mpich 512p (simulated)', \
  'slingshot/fig7_alltoall_512p_d2d_openmpi-cxi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 pt 1 ps 0.6 title 'openmpi-cxi osu_alltoall pairwise 512p (simulated)', \
  'slingshot/fig7_alltoall_512p_d2d_openmpi-cxi_defaults.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 4 pt 1 ps 0.6 title 'openmpi-cxi osu_alltoall tuned 512p (simulated)', \
  'slingshot/fig7_alltoall_512p_d2d_openmpi-linkx.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 5 pt 1 ps 0.6 title 'openmpi-linkx osu_alltoall pairwise 512p (simulated)', \
  'slingshot/fig7_alltoall_512p_d2d_openmpi-linkx_defaults.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 6 pt 1 ps 0.6 title 'openmpi-linkx osu_alltoall tuned 512p (simulated)'
