# make demo: the Duffing bifurcation diagram straight from the runner's CSV
# (system,rep,k,y1,status).  demo.sh sets: csv, png, note.
set terminal pngcairo size 1400,900 enhanced font "DejaVu Sans,16" linewidth 1.5
set output png
set encoding utf8
set datafile separator ","
set tics out nomirror
unset key
set title "Duffing oscillator, bifurcation diagram (RK4, dt = 10^{-2})"
set xlabel "damping k"
set ylabel "Π(y_1)"
set xrange [0.2:0.3]
set xtics 0.02
set label 99 note at screen 0.99, screen 0.015 right font ",11" textcolor rgb "gray40"
plot csv using 3:4 skip 1 with points pt 7 ps 0.12 lc rgb "black"
