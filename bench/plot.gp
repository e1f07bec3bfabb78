# bench/plot.gp: slowdown per workload per tool (log scale), from the table
# report.py writes. run.sh calls:
#   gnuplot -e "datafile='results/slowdown.dat'; outfile='results/slowdown.png'; ncols=N" bench/plot.gp
# Rows are workloads, columns tools ("?" = not measured).
if (!exists("datafile")) datafile = 'results/slowdown.dat'
if (!exists("outfile")) outfile = 'results/slowdown.png'
if (!exists("ncols")) ncols = 3

set terminal pngcairo size 1400,700 font "sans,11"
set output outfile
set title "Race detector slowdown vs native (median wall time, equal problem size)"
set datafile missing "?"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y 10
set yrange [0.5:*]
set ylabel "slowdown (x native, log scale)"
set grid ytics mytics
set mytics 10
set xtics rotate by 30 right nomirror
set key outside right top vertical
set format y "%gx"
plot for [c=2:ncols] datafile using c:xtic(1) title columnheader(c)
