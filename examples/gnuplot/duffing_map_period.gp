# Duffing oscillator: the isoperiodic diagram over (k, B) (`period`, of y1 and
# y2 at t = 2πn, tol 1e-5, max 32).  dat: `last` with columns k B lyap1 period.
# Black: no period up to 32 (chaos, or not settled); a colour per period 1…12,
# grey above.  Dashed: Melnikov's threshold B = 0.753 k.
load dir.'/common.gp'
set terminal pngcairo size 1200,1000 enhanced font "DejaVu Sans,16"
set output png
set title "Duffing oscillator, period in forcing periods (0: none up to 32)"
set xlabel "damping k"
set ylabel "forcing amplitude B"
set xrange [0.05:0.45]
set yrange [0.05:0.55]
set size ratio 1
set palette maxcolors 14
set palette defined (0 "black", 1 "#f0f0f0", 2 "#1f77b4", 3 "#ff7f0e", 4 "#2ca02c", 5 "#d62728", \
                     6 "#9467bd", 7 "#8c564b", 8 "#e377c2", 9 "#bcbd22", 10 "#17becf", 11 "#ffdd00", \
                     12 "#00ff7f", 13 "gray50")
set cbrange [-0.5:13.5]
set cbtics ("none" 0, "1" 1, "2" 2, "3" 3, "4" 4, "5" 5, "6" 6, "7" 7, "8" 8, "9" 9, "10" 10, "11" 11, "12" 12, ">12" 13)
cls(p) = p != p ? 0 : (p > 12 ? 13 : p)
plot dat using 1:2:(cls($4)) with image, \
     4*cosh(pi/2)/(3*sqrt(2)*pi)*x with lines dt 2 lw 2 lc rgb "black"
