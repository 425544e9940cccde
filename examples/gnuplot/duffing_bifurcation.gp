# Duffing: the Poincaré section Π(y1) against k (the paper's Duffing1 figure).
# dat: `points` of y1 per k (reduce.py); meth: the solver, for the title.
load dir.'/common.gp'
set title sprintf("Duffing oscillator, bifurcation diagram (%s)", meth)
set xlabel "damping k"
set ylabel "Π(y_1)"
set xrange [0.2:0.3]
set xtics 0.02
plot for [i=2:ncol(0)] dat index 0 using 1:i with points pt 7 ps 0.12 lc rgb "black"
