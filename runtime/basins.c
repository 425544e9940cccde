/* basins.c — measures of a basin map (api.h, "basin maps"): the basin
 * entropy of Daza, Wagemakers, Georgeot, Guéry-Odelin and Sanjuán (Sci. Rep.
 * 6, 31416, 2016) and the uncertainty exponent of the boundary (McDonald,
 * Grebogi, Ott and Yorke, Physica D 17, 125, 1985), over a grid of labels
 * (C order, the last axis fastest: a slice of the runner's scan).  Plain
 * functions of the labels, so that the runner and Python share them.
 * Appended after attractor.c (same translation unit).
 */
#ifndef ODEGEN_GENERATED
#include "attractor.c"
#endif

#define ODE_BASIN_MAXDIM 32

static int ode_int_less(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The number of points of a grid, or -1 for a bad shape. */
static long long ode_grid_points(int ndim, const long long *shape)
{
    if (ndim < 1 || ndim > ODE_BASIN_MAXDIM || !shape) return -1;
    long long n = 1;
    for (int a = 0; a < ndim; a++) {
        if (shape[a] < 1 || n > LLONG_MAX / shape[a]) return -1;
        n *= shape[a];
    }
    return n;
}

int model_basin_entropy(const int *labels, int ndim, const long long *shape, int box, double *entropy,
                        double *boundary_entropy, long long *boxes, long long *boundary_boxes)
{
    const long long n = ode_grid_points(ndim, shape);
    if (!labels || n < 0 || box < 1) return MODEL_ERR_ARG;
    long long per[ODE_BASIN_MAXDIM], nbox = 1, cells = 1;
    for (int a = 0; a < ndim; a++) {
        per[a] = shape[a] / box;   /* whole boxes along axis a (a partial one at the end is left out) */
        if (per[a] < 1) return MODEL_ERR_ARG;
        nbox *= per[a];
        if (cells > INT_MAX / box) return MODEL_ERR_ARG;
        cells *= box;
    }
    int *cell = (int *)malloc((size_t)cells * sizeof(int));
    if (!cell) return MODEL_ERR_NOMEM;
    double sum = 0, bsum = 0;
    long long nb = 0;
    for (long long b = 0; b < nbox; b++) {
        long long corner[ODE_BASIN_MAXDIM], rest = b;
        for (int a = ndim - 1; a >= 0; a--) {
            corner[a] = (rest % per[a]) * box;
            rest /= per[a];
        }
        for (long long c = 0; c < cells; c++) {   /* the box's labels */
            long long index = 0, r = c;
            long long offs[ODE_BASIN_MAXDIM];
            for (int a = ndim - 1; a >= 0; a--) {
                offs[a] = r % box;
                r /= box;
            }
            for (int a = 0; a < ndim; a++) index = index * shape[a] + corner[a] + offs[a];
            cell[c] = labels[index];
        }
        qsort(cell, (size_t)cells, sizeof(int), ode_int_less);
        double s = 0;
        for (long long c = 0, run = 1; c < cells; c++, run++)
            if (c + 1 == cells || cell[c + 1] != cell[c]) {   /* the end of a label's run */
                const double p = (double)run / (double)cells;
                s -= p * log(p);
                run = 0;
            }
        sum += s;
        if (s > 0) {
            bsum += s;
            nb++;
        }
    }
    free(cell);
    if (entropy) *entropy = sum / (double)nbox;
    if (boundary_entropy) *boundary_entropy = nb ? bsum / (double)nb : 0.0;
    if (boxes) *boxes = nbox;
    if (boundary_boxes) *boundary_boxes = nb;
    return MODEL_OK;
}

int model_basin_uncertainty(const int *labels, int ndim, const long long *shape, int nk, const int *ks,
                            double *fractions, double *exponent, double *exponent_err)
{
    const long long n = ode_grid_points(ndim, shape);
    if (!labels || n < 0 || nk < 1 || !ks) return MODEL_ERR_ARG;
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int used = 0;
    double xs[64], ys[64];
    for (int j = 0; j < nk; j++) {
        const int k = ks[j];
        if (k < 1) return MODEL_ERR_ARG;
        long long uncertain = 0, points = 0;
        for (long long i = 0; i < n; i++) {
            long long rest = i, stride = 1;
            int differs = 0, inside = 1;
            for (int a = ndim - 1; a >= 0; a--) {   /* the neighbours at ±k along every axis */
                const long long x = rest % shape[a];
                rest /= shape[a];
                if (x - k < 0 || x + k >= shape[a]) inside = 0;
                if (x - k >= 0 && labels[i - k * stride] != labels[i]) differs = 1;
                if (x + k < shape[a] && labels[i + k * stride] != labels[i]) differs = 1;
                stride *= shape[a];
            }
            if (!inside) continue;   /* every point counted has all its 2·ndim neighbours */
            points++;
            uncertain += differs;
        }
        const double f = points ? (double)uncertain / (double)points : (double)NAN;
        if (fractions) fractions[j] = f;
        if (f > 0 && used < 64) {
            xs[used] = log((double)k);
            ys[used] = log(f);
            sx += xs[used];
            sy += ys[used];
            sxx += xs[used] * xs[used];
            sxy += xs[used] * ys[used];
            used++;
        }
    }
    /* f(eps) ~ eps^alpha: the least-squares slope of log f against log k, and its standard error. */
    double alpha = NAN, err = NAN;
    const double den = used * sxx - sx * sx;
    if (used >= 2 && den > 0) {
        alpha = (used * sxy - sx * sy) / den;
        const double b = (sy - alpha * sx) / used;
        double ss = 0;
        for (int j = 0; j < used; j++) ss += (ys[j] - b - alpha * xs[j]) * (ys[j] - b - alpha * xs[j]);
        err = used > 2 ? sqrt(ss / (used - 2) * used / den) : (double)NAN;
    }
    if (exponent) *exponent = alpha;
    if (exponent_err) *exponent_err = err;
    return MODEL_OK;
}
