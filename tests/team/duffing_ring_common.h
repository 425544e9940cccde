/* duffing_ring_common.h — the constants shared by the ring of Duffing units
 * in loop form (duffing_ring.h) and written out (duffing_ring_written.h):
 * MPGOS's coupled-systems tutorial T1_RingOfDuffingOscillators, unit u of
 * RING_UNITS (a ring: u ± 1 modulo the units),
 *     x_u' = v_u - G x_u + C (x_{u-1} + x_{u+1})
 *     v_u' = -k_u v_u + x_u - x_u^3 + B cos(w t) - G v_u + C (v_{u-1} + v_{u+1})
 *     event peak[u]: v_u, dir=-1 (a maximum of x_u)
 *     on peak[u] { n_u = n_u + 1; if (n_u == 2) { xs_u = x_u } }
 * states x[0..U-1] then v[0..U-1]; parameters B, w, G, C, k[0..U-1];
 * accessories n[0..U-1] then xs[0..U-1].  MPGOS's values: B = 13.633,
 * w = 0.5, G = 0.004, C = 0.002, k = 0.24, RKCK45 at 1e-8, t in [0, 10·2π/w]. */
#ifndef RING_UNITS
#define RING_UNITS 14
#endif
#define RING_U RING_UNITS
#define ODE_MODEL_NAME "duffing_ring"
#define ODE_FLOAT 0
#define ODE_NSTATE (2 * RING_U)
#define ODE_NPARAM (4 + RING_U)
#define ODE_NDERIVED 0
#define ODE_NAUX 0
#define ODE_NACC (2 * RING_U)
#define ODE_NEVENT RING_U
#define ODE_EVENTS_GLOBAL 0x0ULL      /* XPPAUT `global`s (firing.h): none */
#define ODE_EVENTS_EXACT 0x0ULL       /* `global 0`s: none */
#define ODE_NFIELD (ODE_NSTATE + ODE_NACC + ODE_NPARAM + 3)
#define ODE_NTRIG 1
#ifndef ODE_METHOD
#define ODE_METHOD 4
#endif
#define ODE_DEFAULT_DT 0.01
#define ODE_DEFAULT_T0 0.0
#define ODE_DEFAULT_TOTAL 125.66370614359172
#define ODE_DEFAULT_TOLER 1e-08
#define ODE_DEFAULT_ATOLER 1e-08
#define ODE_DEFAULT_DTMIN 1e-12
#define ODE_DEFAULT_DTMAX 1e6
#define ODE_DEFAULT_MAXSTEPS 100000000ULL
#define ODE_DEFAULT_BOUND 1e100
#define ODE_OPT_HGROW ODE_R(5.0)
#define ODE_OPT_HSHRINK ODE_R(0.1)
#define ODE_OPT_EVSTEPS 50
#define ODE_OPT_EVPOINTS 3
#define ODE_HAS_ON_START 0
#define ODE_HAS_ON_STEP 0
#define ODE_HAS_ON_END 0
#define ODE_SAVE 0
#define ODE_SAVE_EVERY 0.0
#define ODE_NSAVE_SYSTEMS 0
#define ODE_SAVE_MAX 0
#define ODE_DEFAULT_TRANSIENT 0
#define ODE_DEFAULT_RECORD 1
#ifndef ODE_BLOCK_SIZE
#define ODE_BLOCK_SIZE 128
#endif
#define ODEGEN_VERSION "0.2.0"
#define ODE_SOURCE_PATH "duffing_ring.ode"
#define ODE_GENERATED_HASH "0000000000000000"
#define ODE_OPTIONS_TEXT "meth=rkck45, toler=1e-08, atoler=1e-08"
#define SCAN_PREPARE() ring_defaults()
