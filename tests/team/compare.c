/* compare.c — two result files of gpu_run (doubles): the same bits, or
 * within a relative tolerance.  Prints one line; exit status 0 when they
 * agree.   compare A B [TOL]   (no TOL: the same bits) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, k = 0;
    double *v = malloc(cap * sizeof *v);
    for (;;) {
        if (k == cap) v = realloc(v, (cap *= 2) * sizeof *v);
        if (!v || fread(&v[k], sizeof *v, 1, f) != 1) break;
        k++;
    }
    fclose(f);
    *n = k;
    return v;
}

int main(int argc, char **argv)
{
    if (argc < 3) return 2;
    size_t na = 0, nb = 0;
    double *a = slurp(argv[1], &na), *b = slurp(argv[2], &nb);
    if (!a || !b || na != nb || na == 0) {
        printf("compare: %s (%zu values) and %s (%zu values) cannot be compared\n", argv[1], na, argv[2], nb);
        return 1;
    }
    const int bits = argc < 4;
    const double tol = bits ? 0 : atof(argv[3]);
    size_t differ = 0;
    double worst = 0;
    for (size_t k = 0; k < na; k++) {
        if (memcmp(&a[k], &b[k], sizeof(double))) differ++;
        const double d = fabs(a[k] - b[k]) / (1 + fabs(b[k]));
        if (d > worst || d != d) worst = d;
    }
    const int ok = bits ? differ == 0 : worst <= tol;
    printf("%s: %zu of %zu values differ in their bits, largest relative difference %.3g (%s)\n", ok ? "agree" : "DIFFER",
           differ, na, worst, bits ? "the same bits required" : "tolerance given");
    return !ok;
}
