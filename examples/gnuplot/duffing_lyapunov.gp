# Duffing: the largest Lyapunov exponent against k (the paper's Duffing4
# figure).  dat: `mean` of the per-period rate ln(y3)/2π per k.
load dir.'/common.gp'
set title "Duffing oscillator, largest Lyapunov exponent"
set xlabel "damping k"
set ylabel "λ_{max}"
set xrange [0.2:0.3]
set xtics 0.02
set grid ytics
plot 0 with lines lc rgb "gray60" dt 2, \
     dat using 1:2 with points pt 7 ps 0.2 lc rgb "black"
