/* cos_ulps.h — cos off by up to COS_ULPS units in the last place, included
 * (-include) before a model: a libm other than glibc's (CUDA's cos is within
 * 2 ulps, glibc's correctly rounded), for measuring how far the example ring
 * carries such a difference (tests/team/run.sh, part window).  Which results
 * move, and which way, is a hash of the argument's bits and COS_SEED. */
#include <math.h>
#include <stdint.h>
#include <string.h>

static double cos_ulps(double x)
{
    double c = cos(x);
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    b = (b ^ (uint64_t)COS_SEED) * 0x9E3779B97F4A7C15ULL;
    const double to = (b >> 63) ? INFINITY : -INFINITY;
    for (int k = 0; k < (int)((b >> 60) & 3) % (COS_ULPS + 1); k++) c = nextafter(c, to);
    return c;
}
#define cos(x) cos_ulps(x)
