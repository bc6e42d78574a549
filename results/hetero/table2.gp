set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'hetero/table2.svg.tmp'
set datafile separator ','
set key top right
set grid ytics
set title 'heterogeneous, Table 2: ParaView-like display benchmark, 4 nodes x 1 rank: run time (s)'
set ylabel 'run time (s)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0:28.5994]
name(id) = id eq 'table2_paraview_both' ? 'GM + mVAPI striped (held'."\n".'out: predicted), openmpi' : id eq 'table2_paraview_both_stripe_above' ? 'GM + mVAPI, what-if'."\n".'stripe_above policy, openmpi' : id eq 'table2_paraview_gm' ? 'Myrinet GM only, openmpi-gm' : id eq 'table2_paraview_mvapi' ? 'Mellanox mVAPI only,'."\n".'openmpi-mvapi' : id
set bmargin 4
set datafile columnheaders
plot 'hetero/table2.csv' using 3:xtic(name(stringcolumn(1))) title 'simulated' lc rgb '#1b9e77', '' using 4 title 'paper' lc rgb '#d95f02'
