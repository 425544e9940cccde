#!/usr/bin/env python3
"""Reduce a runner's CSV (system,rep,<fields>,status; rows ordered by system
then rep) to the small whitespace-separated file that a figure needs.  Reads
standard input, so that it can sit behind the runner in a pipe and the full
CSV of a paper-size scan never touches the disk:

    ./duffing --fields k,y1 | python3 reduce.py points --x k --y y1 -o duffing.dat

Modes (one output row per system, in system order):

  points --x X --y Y [--y Y2 ...]
      X, then the distinct values of Y over the recorded integrations (five
      significant digits: far below a pixel), sorted.  One data block per Y
      (gnuplot `index 0`, `index 1`, ...), so a row has as many columns as
      the system has distinct values: 2 for a period-1 orbit, up to 1+M in a
      chaotic band.
  mean --x X --y Y
      X, the mean of Y over the recorded integrations, its minimum and maximum,
      and how many values went into the mean.
  max --keys K1,K2,... --y Y [--offset C] [--group G]
      K1..Kn, then max(Y) + C (NaN when no row of the system is usable: the
      grid stays whole).  A new data block (two blank lines) starts when
      one of the first G keys changes, and a blank line separates the scan
      lines of the next key (the layout of gnuplot's `with image` and pm3d).
  last --keys K1,K2,... --y Y [--y Y2 ...] [--group G]
      As max, with the value of each Y in the system's last recorded
      integration (NaN where that row is left out): for running averages
      such as lyapK, and for period.

Rows whose status is nan, bound or ready are left out, and so are values that
are not finite or below -1e299 (an accessory still at a `-1e300` sentinel:
no event in that integration).  Counts of what was left out go to standard
error.  Only the standard library is used.
"""
import argparse
import math
import os
import sys

SKIP_STATUS = {"nan", "singular", "bound", "ready"}
SENTINEL = -1e299


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=("points", "mean", "max", "last"))
    ap.add_argument("--x", help="the abscissa field (points, mean)")
    ap.add_argument("--y", action="append", required=True, help="the field to reduce")
    ap.add_argument("--keys", help="comma-separated key fields (max)")
    ap.add_argument("--offset", type=float, default=0.0, help="added to the maximum (max)")
    ap.add_argument("--group", type=int, default=0,
                    help="leading keys that start a new data block (max)")
    ap.add_argument("-o", "--output", default="-", help="output file (default: standard output)")
    ap.add_argument("--digits", type=int, default=5, help="significant digits of `points` values")
    a = ap.parse_args(argv)
    if a.mode in ("points", "mean") and not a.x:
        ap.error(f"{a.mode} needs --x")
    if a.mode in ("mean", "max") and len(a.y) != 1:
        ap.error(f"{a.mode} takes one --y")
    if a.mode in ("max", "last") and not a.keys:
        ap.error(f"{a.mode} needs --keys")
    return a


def systems(stream, wanted):
    """Yields, per system, a list of (values of the wanted fields, usable) for
    its rows; `usable` is false for a row whose status is left out."""
    first = stream.readline()
    if not first:
        sys.exit("reduce.py: no input (did the runner fail?)")
    header = first.strip().split(",")
    if len(header) < 3 or header[0] != "system" or header[-1] != "status":
        sys.exit("reduce.py: input is not a runner CSV (header: %s)" % ",".join(header)[:200])
    try:
        cols = [header.index(w) for w in wanted]
    except ValueError as e:
        sys.exit("reduce.py: %s; the CSV has: %s" % (e, ", ".join(header[2:-1])))
    skipped = {}
    current, rows = None, []
    for line in stream:
        parts = line.rstrip("\n").split(",")
        if len(parts) != len(header):
            continue
        if parts[0] != current:
            if rows:
                yield rows
            current, rows = parts[0], []
        status = parts[-1]
        ok = status not in SKIP_STATUS
        if not ok:
            skipped[status] = skipped.get(status, 0) + 1
        rows.append(([float(parts[c]) for c in cols], ok))
    if rows:
        yield rows
    for status, n in sorted(skipped.items()):
        print(f"reduce.py: left out {n} rows with status {status}", file=sys.stderr)


def usable(v):
    return math.isfinite(v) and v > SENTINEL


def points(a, out):
    fmt = "%%.%dg" % a.digits
    blocks = [[] for _ in a.y]
    dropped = 0
    for rows in systems(sys.stdin, [a.x] + a.y):
        x = "%.10g" % rows[0][0][0]
        for b in range(len(a.y)):
            vals = [r[1 + b] for r, ok in rows if ok]
            good = [v for v in vals if usable(v)]
            dropped += len(vals) - len(good)
            distinct = sorted({fmt % v for v in good}, key=float)
            if distinct:
                blocks[b].append(x + " " + " ".join(distinct))
    if dropped:
        print(f"reduce.py: left out {dropped} values (not finite, or no event: sentinel)",
              file=sys.stderr)
    out.write("# %s, then the distinct values of one field per system; blocks: %s\n"
              % (a.x, ", ".join("index %d = %s" % (i, y) for i, y in enumerate(a.y))))
    for b, lines in enumerate(blocks):
        if b:
            out.write("\n\n")
        out.write("# index %d: %s\n" % (b, a.y[b]))
        out.write("\n".join(lines))
        out.write("\n")


def mean(a, out):
    out.write("# %s mean(%s) min max n\n" % (a.x, a.y[0]))
    for rows in systems(sys.stdin, [a.x, a.y[0]]):
        vals = [r[1] for r, ok in rows if ok and usable(r[1])]
        if vals:
            out.write("%.10g %.8g %.8g %.8g %d\n"
                      % (rows[0][0][0], sum(vals) / len(vals), min(vals), max(vals), len(vals)))


def grid(a, out, pick, what):
    """One line per system: its keys, then the values pick(rows) returns
    (rows: its (values, usable) in order), in the layout of gnuplot's `with
    image` (see max and last)."""
    keys = a.keys.split(",")
    out.write("# %s %s\n" % (" ".join(keys), what))
    prev = None
    for rows in systems(sys.stdin, keys + a.y):
        k = rows[0][0][:len(keys)]
        if prev is not None:
            if a.group and k[:a.group] != prev[:a.group]:
                out.write("\n\n")
            elif len(keys) > a.group + 1 and k[a.group] != prev[a.group]:
                out.write("\n")
        prev = k
        out.write(" ".join(["%.10g" % v for v in k] + ["%.8g" % v for v in pick(rows)]) + "\n")


def maximum(a, out):
    def pick(rows):
        vals = [r[-1] for r, ok in rows if ok and usable(r[-1])]
        return [max(vals) + a.offset if vals else float("nan")]
    grid(a, out, pick, "max(%s)%+g" % (a.y[0], a.offset))


def last(a, out):
    """The last recorded integration's value: NaN when it is not usable (a
    system that failed has no exponent, not its last good running average)."""
    ny = len(a.y)

    def pick(rows):
        values, ok = rows[-1]
        return [v if ok and usable(v) else float("nan") for v in values[-ny:]]
    grid(a, out, pick, " ".join("last(%s)" % y for y in a.y))


def main(argv):
    a = parse_args(argv)
    reduce = {"points": points, "mean": mean, "max": maximum, "last": last}[a.mode]
    if a.output == "-":
        reduce(a, sys.stdout)
        return
    tmp = a.output + ".tmp"           # renamed when complete, removed on failure
    try:
        with open(tmp, "w") as out:
            reduce(a, out)
        os.replace(tmp, a.output)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


if __name__ == "__main__":
    main(sys.argv[1:])
