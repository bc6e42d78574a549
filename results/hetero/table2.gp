set terminal svg size 900,600 dynamic noenhanced background '#ffffff'
set output 'hetero/table2.svg.tmp'
set datafile separator ','
set key top right
set grid ytics
set title 'hetero/table2: run time (s)'
set ylabel 'run time (s)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0:28.5994]
set xtics rotate by -20
set datafile columnheaders
plot 'hetero/table2.csv' using 3:xtic(1) title 'simulated' lc rgb '#1b9e77', '' using 4 title 'paper' lc rgb '#d95f02'
