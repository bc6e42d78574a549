set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'seastar/fig5.svg.tmp'
set datafile separator ','
set key top left
set grid ytics
set title 'seastar-portals, Fig. 5: application run time relative to Open MPI CM'
set ylabel 'run time / CM run time'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0.8:*]
set datafile columnheaders
plot 'seastar/fig5.csv' using 5:xtic(1) title 'Cray MPI (simulated)' lc rgb '#6a3d9a', '' using 6 title 'OB1 (simulated)' lc rgb '#1b9e77', '' using 7 title 'Cray MPI (paper)' lc rgb '#cab2d6', '' using 8 title 'OB1 (paper)' lc rgb '#a6dba0'
