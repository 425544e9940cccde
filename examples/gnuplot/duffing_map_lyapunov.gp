# Duffing oscillator: the largest Lyapunov exponent over (k, B) (`lyapunov 1`).
# dat: `last` with columns k B lyap1 period.  Dashed: Melnikov's threshold
# B = 0.753 k (Guckenheimer and Holmes §4.5: transverse homoclinic orbits,
# hence chaos, only above it).
load dir.'/common.gp'
set terminal pngcairo size 1200,1000 enhanced font "DejaVu Sans,16"
set output png
set title "Duffing oscillator, largest Lyapunov exponent λ_1"
set xlabel "damping k"
set ylabel "forcing amplitude B"
set cblabel "λ_1"
set xrange [0.05:0.45]
set yrange [0.05:0.55]
set size ratio 1
set palette defined (-0.3 "#00007f", -0.15 "blue", -0.02 "#bfdfff", 0 "white", 0.02 "#ffd0a0", 0.1 "red", 0.2 "#7f0000")
set cbrange [-0.3:0.2]
clip(v) = v < -0.3 ? -0.3 : (v > 0.2 ? 0.2 : v)
plot dat using 1:2:(clip($3)) with image, \
     4*cosh(pi/2)/(3*sqrt(2)*pi)*x with lines dt 2 lw 2 lc rgb "black"
