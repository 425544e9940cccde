# Keller–Miksis bubble: four maps of the largest relative expansion
# y1max − 1 over (f1, f2), one per pair of pressure amplitudes (the paper's
# Keller_Miksis_Collapse figure), colour saturated at 5.  dat: `max` with
# columns PA1 PA2 f1 f2 value, one data block per (PA1, PA2).
load dir.'/common.gp'
set terminal pngcairo size 1400,1250 enhanced font "DejaVu Sans,14"
set output png
unset title
set palette defined (0 "#00007f", 0.8 "blue", 1.6 "#00bfff", 2.5 "#7fff7f", 3.4 "yellow", 4.2 "red", 5 "#7f0000")
set cbrange [0:5]
set cbtics 1
set size ratio 1
set xtics ("20" log10(20), "50" log10(50), "100" 2, "200" log10(200), "500" log10(500), "1000" 3)
set ytics ("20" log10(20), "50" log10(50), "100" 2, "200" log10(200), "500" log10(500), "1000" 3)
set xrange [log10(20):3]
set yrange [log10(20):3]
sat(v) = v > 5 ? 5 : v
set multiplot layout 2,2 title "Keller–Miksis bubble, largest relative expansion y_1^{max} − 1 (saturated at 5)"
do for [p=0:3] {
    stats [*:*][*:*] dat index p using 1:2 nooutput
    set xlabel sprintf("f_1 (kHz),  P_{A1} = %g bar", STATS_min_x)
    set ylabel sprintf("f_2 (kHz),  P_{A2} = %g bar", STATS_min_y)
    plot dat index p using (log10($3)):(log10($4)):(sat($5)) with image
}
unset multiplot
