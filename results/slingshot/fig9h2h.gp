set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'slingshot/fig9h2h.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'slingshot-ex, Fig. 9 H2H: osu_allgather, H2H, 512 ranks = 64 Crusher nodes x 8 (one per L3), Cray MPICH (CXI hardware matching; own shared memory and GPU IPC); allgather as the library chooses it by default (the paper: ''default settings for all the collectives''): MPICH''s default selection (collectives/decision/mpich_default.json: upstream MPICH''s MPIR_*_intra_auto, Cray MPICH''s own cut-offs not being readable); sizes 1 B .. 1 MiB in powers of 16 (OSU: powers of 2) and OSU''s iteration counts (1000 + 200 warm-up up to 8 KiB, 100 + 10 above) with the steady-state cutoff (benchmarks/osu_coll.cpp)'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'slingshot/fig9_allgather_512p_h2h_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 pt 1 ps 0.6 title 'native osu_allgather mpich 512p (simulated)', \
  'slingshot/fig9_allgather_512p_h2h_openmpi-cxi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi-cxi osu_allgather tuned 512p (simulated)', \
  'slingshot/fig9_allgather_512p_h2h_openmpi-linkx.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 3 pt 1 ps 0.6 title 'openmpi-linkx osu_allgather tuned 512p (simulated)'
