# Pressure relief valve: maxima (black) and minima (red) of the displacement
# y1 against the flow rate q (the paper's valve figure).  dat: `points` with
# index 0 = ymax, index 1 = ymin.
load dir.'/common.gp'
set title "Pressure relief valve with impacts"
set xlabel "flow rate q"
set ylabel "y_1^{max}, y_1^{min}"
set xrange [0:10]
set key top left opaque box
plot for [i=2:ncol(0)] dat index 0 using 1:i with points pt 7 ps 0.16 lc rgb "black" notitle, \
     for [i=2:ncol(1)] dat index 1 using 1:i with points pt 7 ps 0.16 lc rgb "red" notitle, \
     keyentry with points pt 7 ps 1.5 lc rgb "black" title "maximum of y_1 (Poincaré section)", \
     keyentry with points pt 7 ps 1.5 lc rgb "red" title "minimum of y_1 (0: impact on the seat)"
