# Pressure relief valve: the Lyapunov exponents against the flow rate q
# (`lyapunov 3`, saltation at the impacts).  dat: `last` with columns q lyap1
# lyap2 lyap3 (lyap3, between -3 and -40, is off the scale).
load dir.'/common.gp'
set title "Pressure relief valve with impacts, Lyapunov exponents"
set xlabel "flow rate q"
set ylabel "λ_1, λ_2"
set xrange [0:10]
set yrange [-1:1]
set grid ytics
set key bottom right opaque box
plot 0 with lines lc rgb "gray60" dt 2 notitle, \
     dat using 1:3 with points pt 7 ps 0.3 lc rgb "red" title "λ_2", \
     dat using 1:2 with points pt 7 ps 0.3 lc rgb "black" title "λ_1 (0 on a periodic orbit: the flow's direction)"
