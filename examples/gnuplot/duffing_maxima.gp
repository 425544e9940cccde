# Duffing: the maximum of y1 in each period, by an accessory (black) and by an
# event at the local maxima (red): the paper's Duffing2/Duffing3 figure.
# dat: `points` with index 0 = accessory, index 1 = event.
load dir.'/common.gp'
set title "Duffing oscillator, maximum of y_1 per period"
set xlabel "damping k"
set ylabel "y_1^{max}"
set xrange [0.2:0.3]
set xtics 0.02
set key bottom right opaque box
plot for [i=2:ncol(0)] dat index 0 using 1:i with points pt 7 ps 0.16 lc rgb "black" notitle, \
     for [i=2:ncol(1)] dat index 1 using 1:i with points pt 7 ps 0.08 lc rgb "red" notitle, \
     keyentry with points pt 7 ps 1.5 lc rgb "black" title "accessory: largest y_1 of the period", \
     keyentry with points pt 7 ps 1.5 lc rgb "red" title "event: largest local maximum (y_2 = 0, downwards)"
