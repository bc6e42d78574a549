set datafile separator ','
set linetype 5 lc rgb '#b08800'
set key top left reverse Left box opaque font ',9' spacing 0.9
set logscale x 2
set logscale y
set grid
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set xtics ("1 B" 1, "2 B" 2, "4 B" 4, "8 B" 8, "16 B" 16, "32 B" 32, "64 B" 64, "128 B" 128, "256 B" 256, "512 B" 512, "1 KiB" 1024, "2 KiB" 2048, "4 KiB" 4096, "8 KiB" 8192, "16 KiB" 16384, "32 KiB" 32768, "64 KiB" 65536, "128 KiB" 131072, "256 KiB" 262144, "512 KiB" 524288, "1 MiB" 1048576, "2 MiB" 2097152, "4 MiB" 4194304, "8 MiB" 8388608, "16 MiB" 16777216, "32 MiB" 33554432, "64 MiB" 67108864, "128 MiB" 134217728, "256 MiB" 268435456, "512 MiB" 536870912, "1 GiB" 1073741824)
set format y '%g'
set title 'whatif_gemini_smsg_limit_256'
set xlabel 'message size (bytes)'
set ylabel 'latency (us)'
set bmargin 8
set label 100 'What does the SMSG limit of a large job cost a message on Gemini? osu_latency between two Cielo nodes (one rank each), Open MPI, with' at screen 0.012, screen 0.0793 left front font ',9'
set label 101 'btl_ugni_smsg_limit pinned at 256 B, the value btl/ugni''s automatic rule picks for a job of more than 16,384 ranks (trunk r26242''s rule, the revision' at screen 0.012, screen 0.0579 left front font ',9'
set label 102 'the Gemini paper measured; its Table I is the next revision''s); sizes 64 B to 8 KiB. Run scenarios/gemini/fig5_latency_2p_inter_openmpi.json for the' at screen 0.012, screen 0.0366 left front font ',9'
set label 103 'same pair with the limit on auto (1,024 B for 2 ranks)' at screen 0.012, screen 0.0152 left front font ',9'
set yrange [1.53392 : 7.94648]
set ytics ("2" 2, "3" 3, "4" 4, "5" 5, "7" 7)
set terminal svg size 900,656 dynamic noenhanced font 'sans,11' background '#ffffff'
set output 'examples/whatif_gemini_smsg_limit_256.svg.tmp'
plot 'examples/whatif_gemini_smsg_limit_256.csv' using (column('bytes')):(column('latency_us')) with linespoints lc 1 dt 1 pt 1 ps 0.7 title 'openmpi osu_latency 2p btl_ugni_smsg_limit=256 (simulated)'
