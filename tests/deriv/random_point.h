/* random_point.h — the random points of the derivative tests (fd_check.c,
 * gpu_agree.cu): parameters within 20 % of their defaults, states within
 * (|default| + 1)/2 of theirs, accessories in [-2, 2], t in [0.3, 10.3].
 * Included after the generated model section. */
#ifndef DERIV_RANDOM_POINT_H
#define DERIV_RANDOM_POINT_H

#include <math.h>
#include <string.h>

static unsigned long long rng_state = 0x9E3779B97F4A7C15ULL;

/* xorshift64: uniform in [-1, 1) */
static double uniform(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 4503599627370496.0 - 1.0;
}

static void random_point(OdeSystem *s)
{
    memset(s, 0, sizeof *s);
    for (int k = 0; k < ODE_NPARAM; k++) {
        double p0 = ode_param_default[k];
        s->p[k] = p0 != 0 ? p0 * (1 + 0.2 * uniform()) : 0.1 * uniform();
    }
    ode_model_derived(s);
    for (int j = 0; j < ODE_NSTATE; j++)
        s->y[j] = ode_state_default[j] + 0.5 * (fabs(ode_state_default[j]) + 1) * uniform();
    for (int a = 0; a < ODE_NACC; a++) s->acc[a] = 2 * uniform();
    for (int e = 0; e < ODE_NEVENT; e++) s->count[e] = 1 + (int)(3 * (uniform() + 1));
    s->t = 5.3 + 5 * uniform();
    s->t0 = s->t - 1.7;
    s->t1 = s->t + 3.1;
}

#endif
