set datafile separator ','
set key top left reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set logscale y
set grid
set offsets graph 0.02, graph 0.02, 0, 0
set format x '%.0f'
set format y '%g'
set title "gemini-xe-xk, whatif_mailbox_memory_titan: What-if: SMSG mailbox memory per node vs the planned\nMSGQ design (paper §II.A, §VIII) at the first job size of 16 ranks per node where btl/ugni's\nautomatic rule picks the 256 B SMSG limit (more than 16,384 ranks; the paper's Table I gives\n256 B from 16,384 on): 16,400 ranks, 16 per Titan node (1,025 nodes), Cheetah p2p barrier over\nob1/ugni (one warm-up call that connects the endpoints, one timed call). The result's\nmailbox_memory block gives bytes per node for per-peer SMSG mailboxes if every rank connected\nto every off-node rank (smsg_all_peers), for the endpoints this run connected (smsg_connected;\nsmsg_connected_max if every connection were one-way; smsg_connected_allocated with Open MPI's 2\nMiB mailbox blocks), and for MSGQ, one queue per remote node shared by the node's ranks\n(msgq_per_node)"
set xlabel 'processes'
set ylabel 'latency (us)'
set terminal unknown
plot 'gemini/whatif_mailbox_memory_titan.csv' using (column('ranks')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi cheetah-p2p 16400p (simulated)'
y0 = GPVAL_Y_MIN; y1 = GPVAL_Y_MAX
set yrange [y0 : y0 * (y1 / y0) ** (1.0 / 0.9183)]
set terminal svg size 900,600 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'gemini/whatif_mailbox_memory_titan.svg.tmp'
replot
