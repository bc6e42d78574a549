set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key at screen 0.012, screen 0.1585 left top reverse Left box opaque font ',9' spacing 0.9 maxrows 1
set grid
set format y '%g'
set title 'gemini-xe-xk, whatif_mailbox_memory_titan'
set xlabel 'processes'
set ylabel 'latency (us)'
set xtics ('openmpi cheetah-p2p 16400p' 1)
set xrange [0.4 : 1.6]
set boxwidth 0.5
set yrange [0 : *]
set offsets 0, 0, graph 0.06, 0
set xlabel 'processes: 16400'
set bmargin 12
set label 100 'What-if: SMSG mailbox memory per node vs the planned MSGQ design (paper §II.A, §VIII) at the first job size of 16 ranks per node where btl/ugni''s' at screen 0.012, screen 0.1122 left front font ',9'
set label 101 'automatic rule picks the 256 B SMSG limit (more than 16,384 ranks; the paper''s Table I gives 256 B from 16,384 on): 16,400 ranks, 16 per Titan node' at screen 0.012, screen 0.0926 left front font ',9'
set label 102 '(1,025 nodes), Cheetah p2p barrier over ob1/ugni (one warm-up call that connects the endpoints, one timed call). The result''s mailbox_memory block' at screen 0.012, screen 0.0729 left front font ',9'
set label 103 'gives bytes per node for per-peer SMSG mailboxes if every rank connected to every off-node rank (smsg_all_peers), for the endpoints this run connected' at screen 0.012, screen 0.0533 left front font ',9'
set label 104 '(smsg_connected; smsg_connected_max if every connection were one-way; smsg_connected_allocated with Open MPI''s 2 MiB mailbox blocks), and for MSGQ,' at screen 0.012, screen 0.0337 left front font ',9'
set label 105 'one queue per remote node shared by the node''s ranks (msgq_per_node)' at screen 0.012, screen 0.0140 left front font ',9'
set terminal svg size 900,713 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'gemini/whatif_mailbox_memory_titan.svg.tmp'
plot 'gemini/whatif_mailbox_memory_titan.csv' using (1):(column('latency_us')) with boxes lc 1 fs solid 0.4 border title 'openmpi cheetah-p2p 16400p (simulated)', \
  'gemini/whatif_mailbox_memory_titan.csv' using (1):((column('latency_us')) / 2):(sprintf('%.4g', (column('latency_us')))) with labels font ',10' notitle
