set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'gemini/whatif_mailbox_memory_titan.svg.tmp'
set datafile separator ','
set key top left
set logscale x 2
set logscale y
set grid
set format x '%.0f'
set format y '%g'
set title 'gemini-xe-xk, whatif_mailbox_memory_titan: What-if: SMSG mailbox memory per node vs the planned MSGQ design (paper §II.A, §VIII) at the first job size where Table I picks the 256 B SMSG limit: 16,384 ranks, 16 per Titan node (1,024 nodes), Cheetah p2p barrier over ob1/ugni (one warm-up call that connects the endpoints, one timed call). The result''s mailbox_memory block gives bytes per node for per-peer SMSG mailboxes if every rank connected to every off-node rank (smsg_all_peers), for the endpoints this run connected (smsg_connected; smsg_connected_max if every connection were one-way; smsg_connected_allocated with Open MPI''s 2 MiB mailbox blocks), and for MSGQ, one queue per remote node shared by the node''s ranks (msgq_per_node)'
set xlabel 'processes'
set ylabel 'latency (us)'
plot 'gemini/whatif_mailbox_memory_titan.csv' using (column('ranks')):(column('latency_us')) with linespoints lc 1 pt 1 ps 0.6 title 'openmpi cheetah-p2p 16384p (simulated)'
