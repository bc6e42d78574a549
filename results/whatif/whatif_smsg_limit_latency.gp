set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'whatif/whatif_smsg_limit_latency.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0b%B'
set format y '%g'
set title 'whatif_smsg_limit_latency: What-if (protocol choice at scale): inter-node osu_latency on Titan, native, with the SMSG limit pinned at 256 B, the value Table I of the Gemini paper picks on auto for jobs of 16,384 ranks or more, so that two ranks show the protocols a message of each size takes in such a job (mpich_gni_max_vshort_msg_size = 256). Open MPI: SMSG up to 256 B, then ugni''s eager get up to btl_ugni_eager_limit, then ob1''s rendezvous; Cray MPT: SMSG up to 256 B, then the E1 eager path (DMA buffers, receiver GET) up to MPICH_GNI_MAX_EAGER_MSG_SIZE (8,192 B), then the RTS/GET rendezvous. Compare with Fig. 5 (Cielo, 2 ranks: SMSG limit 8,192 B)'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
plot 'whatif/whatif_smsg_limit_256_latency_native.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 pt 1 ps 0.6 title 'native osu_latency 2p mpich_gni_max_vshort_msg_size=256 (simulated)', \
  'whatif/whatif_smsg_limit_256_latency_openmpi.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 2 pt 1 ps 0.6 title 'openmpi osu_latency 2p btl_ugni_smsg_limit=256 (simulated)'
