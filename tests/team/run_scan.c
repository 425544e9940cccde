/* run_scan.c — one scan (scan.h) of a model written out (run_written.c),
 * every result written to FILE as doubles (compare.c reads them):
 *     run_scan FILE N VARY LO HI TOTAL TRANSIENT RECORD */
#include <stdio.h>
#include <stdlib.h>
#include "sides.h"

int main(int argc, char **argv)
{
    if (argc != 9) {
        fprintf(stderr, "usage: run_scan FILE N VARY LO HI TOTAL TRANSIENT RECORD\n");
        return 2;
    }
    const ScanSpec spec = {atoi(argv[2]), atoi(argv[3]), atof(argv[4]), atof(argv[5]), atof(argv[6]),
                           atoi(argv[7]), atoi(argv[8])};
    double *out = malloc(sizeof(double) << 22);
    const size_t n = out ? written_run(&spec, out) : 0;
    FILE *f = fopen(argv[1], "wb");
    if (!n || !f || fwrite(out, sizeof(double), n, f) != n || fclose(f)) {
        fprintf(stderr, "run_scan: cannot write %s\n", argv[1]);
        return 1;
    }
    return 0;
}
