set terminal svg size 900,600 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'slingshot/fig7d2d.svg.tmp'
set datafile separator ','
set key top left reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set logscale y
set grid
set xtics ("1 B" 1, "4 B" 4, "16 B" 16, "64 B" 64, "256 B" 256, "1 KiB" 1024, "4 KiB" 4096, "16 KiB" 16384, "64 KiB" 65536, "256 KiB" 262144, "1 MiB" 1048576, "4 MiB" 4194304, "16 MiB" 16777216, "64 MiB" 67108864, "256 MiB" 268435456, "1 GiB" 1073741824)
set format y '%g'
set title "slingshot-ex, Fig. 7 D2D: osu_alltoall, D2D, 512 ranks = 64 Crusher nodes x 8 (one per L3),\nCray MPICH (CXI hardware matching; own shared memory and GPU IPC); coll/base alltoall pairwise\nfor every stack: both libraries' default at 1 MiB; at 1-256 B their defaults (modified Bruck)\nrun in the '_defaults' scenario of the same figure; at 4 KiB and 64 KiB Open MPI's default\n(linear_sync, every request at once) is not run, for its cost; sizes 1 B .. 1 MiB in powers of\n16 (OSU: powers of 2) and OSU's iteration counts (1000 + 200 warm-up up to 8 KiB, 100 + 10\nabove) with the steady-state cutoff (benchmarks/osu_coll.cpp)"
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'slingshot/fig7_alltoall_512p_d2d_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'native osu_alltoall pairwise 512p (simulated)', \
  'slingshot/fig7_alltoall_512p_d2d_native_defaults.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 dt 2 pt 2 ps 0.7 title 'native osu_alltoall mpich 512p (simulated)', \
  'slingshot/fig7_alltoall_512p_d2d_openmpi-cxi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 dt 3 pt 4 ps 0.7 title 'openmpi-cxi osu_alltoall pairwise 512p (simulated)', \
  'slingshot/fig7_alltoall_512p_d2d_openmpi-cxi_defaults.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 4 dt 4 pt 6 ps 0.7 title 'openmpi-cxi osu_alltoall tuned 512p (simulated)', \
  'slingshot/fig7_alltoall_512p_d2d_openmpi-linkx.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 5 dt 5 pt 8 ps 0.7 title 'openmpi-linkx osu_alltoall pairwise 512p (simulated)', \
  'slingshot/fig7_alltoall_512p_d2d_openmpi-linkx_defaults.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 6 dt 1 pt 10 ps 0.7 title 'openmpi-linkx osu_alltoall tuned 512p (simulated)'
