# Shared settings of the example figures (loaded by each figure's script).
# plot.sh sets: dat (the reduced data), png (the figure), ncols (the widest
# row of each data block of dat, as words), note (what was run; may be empty).
set terminal pngcairo size 1400,900 enhanced font "DejaVu Sans,16" linewidth 1.5
set output png
set encoding utf8
set border lw 1.2
set tics out nomirror
unset key
if (strlen(note) > 0) set label 99 note at screen 0.99, screen 0.015 right font ",11" textcolor rgb "gray40"
ncol(b) = int(word(ncols, b + 1))   # the widest row of data block b
