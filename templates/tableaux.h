/* tableaux.h — the Butcher tableaux of the explicit Runge–Kutta methods, as
 * data (GSL's rkck.c, SUNDIALS' arkode_butcher_erk.def): one block of numbers
 * per method, fed to the one generic stepper (stepper.h).  A new method is a
 * new block here (plus, at most, the rows of its own continuous extension).
 *
 * Per method M (ODE_M_…):
 *   STAGES   stages of one trial step (for an FSAL method the last stage is
 *            f(t+h, ynew): the next step's first)
 *   ORDER    order of the propagated solution; EST order of the embedded one
 *            (0: a fixed-step method without error estimate)
 *   FSAL     1 when the last stage is f at the step's end
 *   C, A, B  nodes, stage coefficients (rows, zeros left out), weights
 *   E        error weights b - b̂: err = h Σ E_j k_j (DOP853: E5 and E3)
 *   D        rows of the method's own continuous extension (dense.h): the
 *            extension is y0 + θ(F0 + (1-θ)(F1 + θ(F2 + (1-θ)(F3 + …)))) with
 *            F0..F2 the cubic Hermite terms and F3.. = h Σ_j D_rj k_j; a method
 *            without D rows uses the cubic Hermite interpolant.
 *   NEXTRA   stages evaluated after an accepted step for D only (DOP853: 3)
 *   BETA1, BETA2, SAFETY, HOLD  the step-size controller (integrate.h):
 *            h_new = h · SAFETY · err^-BETA1 · err_prev^BETA2
 *            (BETA2 = 0: the standard controller; otherwise PI, Lund's
 *            stabilisation, err_prev the last accepted step's ratio); HOLD:
 *            no growth on the step accepted right after a rejection
 *   TRIG_SLOT, TRIG_NODES  fixed-step methods: which distinct node each stage
 *            has, for sin/cos of time by angle addition (stepper.h)
 *   STAB_GATE  fixed-step methods: the smallest |z| where the stability
 *            polynomial R has |R(z)| >= max(1, 2 e^(Re z)), rounded down
 *            (stability.h; test_methods.py computes it from the tableau)
 *
 * Coefficients are C expressions of double literals (17 significant digits
 * where the exact value is not a short fraction); tests/numerics/
 * test_methods.py reads them from this file and checks every order condition
 * (Butcher's rooted trees) of each weight vector and continuous extension.
 */
#ifndef ODE_TABLEAUX_H
#define ODE_TABLEAUX_H

#ifndef ODEGEN_GENERATED
#include "example_model.h"
#endif

/* ODE_METHOD's values (the generator's Method enum uses the same numbers). */
#define ODE_METH_EULER 1
#define ODE_METH_MODEULER 2
#define ODE_METH_RK4 3
#define ODE_METH_RKCK45 4
#define ODE_METH_DOPRI5 5
#define ODE_METH_TSIT5 6
#define ODE_METH_DOP853 7
#define ODE_METH_VERN7 8
#define ODE_METH_RODAS5P 9      /* linearly implicit (Rosenbrock): rosenbrock.h */
#define ODE_METH_ROS3P 10
#define ODE_METH_DISCRETE 11    /* a map y(t+1) = f(t, y): map.h, no tableau */
#define ODE_METH_MILSTEIN 12    /* SDE methods: sde.h (Euler's tableau for f(t, y)) */
#define ODE_METH_WEAK2 13
#define ODE_METH_SYMPLECTIC 14  /* XPPAUT's ymp: symplectic.h (Euler's tableau for the rest) */

#ifndef ODE_METHOD
#define ODE_METHOD ODE_METH_RK4
#endif

/* ------------------------------------------------------------------ euler
 * Forward Euler, as XPPAUT's `euler` steps it (odesol2.c one_step_euler). */
#define ODE_EULER_STAGES 1
#define ODE_EULER_ORDER 1
#define ODE_EULER_EST 0
#define ODE_EULER_FSAL 0
#define ODE_EULER_NDENSE 0
#define ODE_EULER_C {0.0}
#define ODE_EULER_A { \
    {0.0} \
}
#define ODE_EULER_B {1.0}
#define ODE_EULER_TRIG_SLOT {-1}
#define ODE_EULER_TRIG_NODES {0.0}
#define ODE_EULER_NTRIG_SLOTS 0
#define ODE_EULER_STAB_GATE 1.177      /* 1.1776 near z = -0.68 + 0.96i */

/* ------------------------------------------------------------------ modeuler
 * Heun's method (trapezoidal predictor–corrector), XPPAUT's `modeuler`
 * (one_step_heun): y + h/2 (f(t, y) + f(t+h, y + h f(t, y))). */
#define ODE_MODEULER_STAGES 2
#define ODE_MODEULER_ORDER 2
#define ODE_MODEULER_EST 0
#define ODE_MODEULER_FSAL 0
#define ODE_MODEULER_NDENSE 0
#define ODE_MODEULER_C {0.0, 1.0}
#define ODE_MODEULER_A { \
    {0.0}, \
    {1.0} \
}
#define ODE_MODEULER_B {1.0 / 2, 1.0 / 2}
#define ODE_MODEULER_TRIG_SLOT {-1, 0}
#define ODE_MODEULER_TRIG_NODES {1.0}
#define ODE_MODEULER_NTRIG_SLOTS 1
#define ODE_MODEULER_STAB_GATE 1.788   /* 1.7884 near z = -0.39 + 1.75i */

/* ------------------------------------------------------------------ rk4
 * The classical fourth-order Runge–Kutta method (XPPAUT `rungekutta`). */
#define ODE_RK4_STAGES 4
#define ODE_RK4_ORDER 4
#define ODE_RK4_EST 0
#define ODE_RK4_FSAL 0
#define ODE_RK4_NDENSE 0
#define ODE_RK4_C {0.0, 1.0 / 2, 1.0 / 2, 1.0}
#define ODE_RK4_A { \
    {0.0}, \
    {1.0 / 2}, \
    {0.0, 1.0 / 2}, \
    {0.0, 0.0, 1.0} \
}
#define ODE_RK4_B {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6}
#define ODE_RK4_TRIG_SLOT {-1, 0, 0, 1}
#define ODE_RK4_TRIG_NODES {1.0 / 2, 1.0}
#define ODE_RK4_NTRIG_SLOTS 2
#define ODE_RK4_STAB_GATE 2.615        /* 2.6157 near z = -1.41 + 2.20i (on the real axis: 2.785) */

/* ------------------------------------------------------------------ rkck45
 * Cash & Karp, ACM TOMS 16 (1990) 201–222: 5(4), the fifth-order solution
 * propagated (XPPAUT `qualrk`, MPGOS's RKCK45).  Standard controller,
 * 0.9 · err^(-1/5) (Numerical Recipes' rkqs, MPGOS). */
#define ODE_RKCK45_STAGES 6
#define ODE_RKCK45_ORDER 5
#define ODE_RKCK45_EST 4
#define ODE_RKCK45_FSAL 0
#define ODE_RKCK45_NDENSE 0
#define ODE_RKCK45_C {0.0, 1.0 / 5, 3.0 / 10, 3.0 / 5, 1.0, 7.0 / 8}
#define ODE_RKCK45_A { \
    {0.0}, \
    {1.0 / 5}, \
    {3.0 / 40, 9.0 / 40}, \
    {3.0 / 10, -9.0 / 10, 6.0 / 5}, \
    {-11.0 / 54, 5.0 / 2, -70.0 / 27, 35.0 / 27}, \
    {1631.0 / 55296, 175.0 / 512, 575.0 / 13824, 44275.0 / 110592, 253.0 / 4096} \
}
#define ODE_RKCK45_B {37.0 / 378, 0.0, 250.0 / 621, 125.0 / 594, 0.0, 512.0 / 1771}
#define ODE_RKCK45_E {-277.0 / 64512, 0.0, 6925.0 / 370944, -6925.0 / 202752, -277.0 / 14336, 277.0 / 7084}
#define ODE_RKCK45_BETA1 (1.0 / 5)
#define ODE_RKCK45_BETA2 0.0
#define ODE_RKCK45_SAFETY 0.9
#define ODE_RKCK45_HOLD 0

/* ------------------------------------------------------------------ dopri5
 * Dormand & Prince, J. Comput. Appl. Math. 6 (1980) 19–26: RK5(4)7M, FSAL
 * (XPPAUT `5dp`).  Continuous extension of order 4: Hairer, Nørsett & Wanner,
 * Solving ODE I, §II.6 (dopri5's dense output; D = its d1..d7).  PI
 * controller of Hairer's dopri5: β1 = 0.2 - 0.75 β2, β2 = 0.04, safety 0.9,
 * no growth right after a rejection. */
#define ODE_DOPRI5_STAGES 7
#define ODE_DOPRI5_ORDER 5
#define ODE_DOPRI5_EST 4
#define ODE_DOPRI5_FSAL 1
#define ODE_DOPRI5_C {0.0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1.0, 1.0}
#define ODE_DOPRI5_A { \
    {0.0}, \
    {1.0 / 5}, \
    {3.0 / 40, 9.0 / 40}, \
    {44.0 / 45, -56.0 / 15, 32.0 / 9}, \
    {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729}, \
    {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656}, \
    {35.0 / 384, 0.0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84} \
}
#define ODE_DOPRI5_B {35.0 / 384, 0.0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84}
#define ODE_DOPRI5_E {71.0 / 57600, 0.0, -71.0 / 16695, 71.0 / 1920, -17253.0 / 339200, 22.0 / 525, -1.0 / 40}

#define ODE_DOPRI5_D { {-1.1270175653862835, 0.0, 2.675424484351598, -5.6855269615885042, 3.5219323679207912, \
      -1.7672812570757455, 69997945.0 / 29380423} }
#define ODE_DOPRI5_NDENSE 1
#define ODE_DOPRI5_BETA1 0.17
#define ODE_DOPRI5_BETA2 0.04
#define ODE_DOPRI5_SAFETY 0.9
#define ODE_DOPRI5_HOLD 1

/* ------------------------------------------------------------------ tsit5
 * Tsitouras, Comput. Math. Appl. 62 (2011) 770–775: 5(4), FSAL, with its
 * free continuous extension of order 4 (D: the θ^4 coefficients of the
 * weights b_j(θ), which satisfy the Hermite conditions at both ends).
 * Digits from OrdinaryDiffEq's tsit_tableaus.jl (60+ digit values).  PI
 * controller with OrdinaryDiffEq's defaults for order 5: β1 = 7/50,
 * β2 = 2/25, safety 0.9. */
#define ODE_TSIT5_STAGES 7
#define ODE_TSIT5_ORDER 5
#define ODE_TSIT5_EST 4
#define ODE_TSIT5_FSAL 1
#define ODE_TSIT5_C {0.0, 161.0 / 1000, 327.0 / 1000, 9.0 / 10, 0.98002554090450966, 1.0, 1.0}
#define ODE_TSIT5_A { \
    {0.0}, \
    {161.0 / 1000}, \
    {-0.0084806554923569887, 0.335480655492357}, \
    {2.8971530571054935, -6.3594484899750752, 4.3622954328695815}, \
    {5.3258648284392569, -11.748883564062828, 7.4955393428898365, -0.092495066361755252}, \
    {5.8614554429464203, -12.92096931784711, 8.1593678985761589, -0.071584973281400996, \
      -0.028269050394068383}, \
    {0.09646076681806523, 1.0 / 100, 0.4798896504144996, 1.3790085741037419, \
      -3.2900695154360808, 2.3247105240997739} \
}
#define ODE_TSIT5_B {0.09646076681806523, 1.0 / 100, 0.4798896504144996, 1.3790085741037419, \
      -3.2900695154360808, 2.3247105240997739}
#define ODE_TSIT5_E {0.0017800110522257714, 0.00081643445965674691, -0.0078808780102619953, 0.14471100717326291, \
      -0.58235716545255523, 0.45808210592918697, -1.0 / 66}

#define ODE_TSIT5_D { {-1.0530884977290216, 1017.0 / 10000, 2.4906272856512528, -16.548102889244902, \
      47.379521962819283, -34.870657861496611, 5.0 / 2} }
#define ODE_TSIT5_NDENSE 1
#define ODE_TSIT5_BETA1 (7.0 / 50)
#define ODE_TSIT5_BETA2 (2.0 / 25)
#define ODE_TSIT5_SAFETY 0.9
#define ODE_TSIT5_HOLD 0

/* ------------------------------------------------------------------ dop853
 * Dormand & Prince's 8(5,3) as in Hairer's DOP853 (Hairer, Nørsett & Wanner,
 * Solving ODE I, §II.10; XPPAUT `83dp`); digits from scipy's
 * dop853_coefficients.py.  12 stages; row 12 of A is b (f at the step's end,
 * the next step's first stage), rows 13–15 are the 3 extra stages of the
 * continuous extension of order 7 (D).  Error: Hairer's combination of the
 * 5th- and 3rd-order estimates, err5 · |err5| / sqrt(err5² + 0.01 err3²) per
 * component.  Standard controller of DOP853: exponent 1/8, safety 0.9, no
 * growth right after a rejection. */
#define ODE_DOP853_STAGES 12
#define ODE_DOP853_ORDER 8
#define ODE_DOP853_EST 7
#define ODE_DOP853_FSAL 0
#define ODE_DOP853_C {0.0, 0.05260015195876773, 0.078900227938151601, 0.1183503419072274, 0.28164965809277259, \
      0.33333333333333331, 1.0 / 4, 0.30769230769230771, 0.6512820512820513, 3.0 / 5, \
      0.8571428571428571, 1.0, 1.0, 1.0 / 10, 1.0 / 5, 0.77777777777777779}
#define ODE_DOP853_A { \
    {0.0}, \
    {0.05260015195876773}, \
    {0.0197250569845379, 0.059175170953613701}, \
    {0.029587585476806851, 0.0, 0.088762756430420545}, \
    {0.24136513415926669, 0.0, -0.88454947932828609, 0.92483400326179199}, \
    {0.037037037037037035, 0.0, 0.0, 0.17082860872947386, 0.12546768756682242}, \
    {19.0 / 512, 0.0, 0.0, 0.17025221101954405, 0.060216538980455959, -9.0 / 512}, \
    {0.037092000118504789, 0.0, 0.0, 0.17038392571223998, 0.10726203044637328, \
      -0.015319437748624402, 0.0082737891638140233}, \
    {0.62411095871607569, 0.0, 0.0, -3.3608926294469414, -0.86821934684172597, \
      27.59209969944671, 20.154067550477894, -43.489884181069961}, \
    {0.47766253643826434, 0.0, 0.0, -2.4881146199716677, -0.59029082683684297, \
      21.230051448181193, 15.279233632882423, -33.288210968984863, -0.020331201708508627}, \
    {-0.9371424300859873, 0.0, 0.0, 5.1863724288440638, 1.0914373489967295, -8.1497870107469268, \
      -18.520065659996959, 22.739487099350505, 2.4936055526796523, -3.0467644718982196}, \
    {2.273310147516538, 0.0, 0.0, -10.534495466737249, -2.0008720582248625, -17.958931863118799, \
      27.94888452941996, -2.8589982771350235, -8.8728569335306293, 12.360567175794303, \
      0.64339274601576357}, \
    {0.054293734116568765, 0.0, 0.0, 0.0, 0.0, 4.4503128927524092, 1.8915178993145003, \
      -5.8012039600105849, 0.3111643669578199, -0.15216094966251609, 0.20136540080403034, \
      0.044710615727772587}, \
    {0.056167502283047954, 0.0, 0.0, 0.0, 0.0, 0.0, 0.25350021021662483, -0.2462390374708025, \
      -0.12419142326381637, 0.15329179827876568, 0.0082010522956346907, 0.0075678976605456994, \
      -4149.0 / 500000}, \
    {0.031834648163502142, 0.0, 0.0, 0.0, 0.0, 0.028300909672366776, 0.053541988307438566, \
      -0.054923748571390991, 0.0, 0.0, -0.00010834732869724932, 0.00038257109083565839, \
      -0.00034046500868740456, 0.1413124436746325}, \
    {-0.42889630158379194, 0.0, 0.0, 0.0, 0.0, -4.697621415361164, 7.6834211960625991, \
      4.0689898183971103, 0.35672718745528109, 0.0, 0.0, 0.0, -0.0013990241651590145, \
      2.9475147891527724, -9.1509584721798696} \
}

#define ODE_DOP853_B {0.054293734116568765, 0.0, 0.0, 0.0, 0.0, 4.4503128927524092, 1.8915178993145003, \
      -5.8012039600105849, 0.3111643669578199, -0.15216094966251609, 0.20136540080403034, \
      0.044710615727772587}
#define ODE_DOP853_E5 {0.01312004499419488, 0.0, 0.0, 0.0, 0.0, -1.2251564463762044, -0.4957589496572502, \
      1.6643771824549864, -0.35032884874997366, 0.33417911871301748, 0.08192320648511571, \
      -0.022355307863886294}
#define ODE_DOP853_E3 {-0.18980075407240762, 0.0, 0.0, 0.0, 0.0, 4.4503128927524092, 1.8915178993145003, \
      -5.8012039600105849, -0.42268232132379197, -0.15216094966251609, 0.20136540080403034, \
      0.022651792198360825}
#define ODE_DOP853_D { \
    {-8.4289382761090135, 0.0, 0.0, 0.0, 0.0, 0.56671495351937773, -3.0689499459498917, \
      2.3846676565120699, 2.1170345824450281, -0.87139158377797299, 2.2404374302607883, \
      0.63157877876946877, -0.088990336451333307, 18.148505520854727, -9.194632392478356, \
      -4.4360363875948936}, \
    {10.427508642579134, 0.0, 0.0, 0.0, 0.0, 242.28349177525817, 165.20045171727028, \
      -374.5467547226902, -22.113666853125306, 7.7334326684722638, -30.674084731089398, \
      -9.3321305264302286, 15.697238121770845, -31.139403219565178, -9.3529243588444793, \
      35.816841486394082}, \
    {19.985053242002433, 0.0, 0.0, 0.0, 0.0, -387.03730874935178, -189.17813819516758, \
      527.80815920542364, -11.573902539959629, 6.8812326946963003, -1.0006050966910838, \
      0.77771377980534429, -2.7782057523535082, -60.196695231264123, 84.320405506677162, \
      11.992291136182789}, \
    {-25.69393346270375, 0.0, 0.0, 0.0, 0.0, -154.18974869023643, -231.5293791760455, \
      357.63911791061412, 93.405324183624316, -37.458323136451632, 104.0996495089623, \
      29.840293426660502, -43.533456590011141, 96.324553959188279, -39.177261675615441, \
      -149.72683625798564} \
}
#define ODE_DOP853_NDENSE 4
#define ODE_DOP853_NEXTRA 3
#define ODE_DOP853_BETA1 (1.0 / 8)
#define ODE_DOP853_BETA2 0.0
#define ODE_DOP853_SAFETY 0.9
#define ODE_DOP853_HOLD 1

/* ------------------------------------------------------------------ vern7
 * Verner's "most efficient" 7(6) pair (J. H. Verner, Numer. Algorithms 53
 * (2010) 383–396; exact values from OrdinaryDiffEq's verner_tableaus.jl),
 * 10 stages, not FSAL; continuous extension: the cubic Hermite interpolant
 * (its own order-7 interpolant would cost 6 more stages).  PI controller with
 * OrdinaryDiffEq's defaults for order 7: β1 = 7/70, β2 = 2/35, safety 0.9. */
#define ODE_VERN7_STAGES 10
#define ODE_VERN7_ORDER 7
#define ODE_VERN7_EST 6
#define ODE_VERN7_FSAL 0
#define ODE_VERN7_NDENSE 0
#define ODE_VERN7_C {0.0, 1.0 / 200, 49.0 / 450, 49.0 / 300, 911.0 / 2000, 0.6095094489978381, 221.0 / 250, \
      37.0 / 40, 1.0, 1.0}
#define ODE_VERN7_A { \
    {0.0}, \
    {1.0 / 200}, \
    {-4361.0 / 4050, 2401.0 / 2025}, \
    {49.0 / 1200, 0.0, 49.0 / 400}, \
    {0.63891392362557264, 0.0, -2.4556726382236569, 2.2722587145980842}, \
    {-2.6615773750187572, 0.0, 10.804513886456137, -8.3539146573961993, 0.82048759495665702}, \
    {6.0677414346967709, 0.0, -24.711273635911084, 20.427517930788895, -1.9061579788166472, \
      1.0061722492420679}, \
    {12.054670076253203, 0.0, -49.754784950468988, 41.142888638604674, -4.4617601499740038, \
      2.0423348222391748, -0.09834843665406108}, \
    {10.138146522881808, 0.0, -42.641136031717501, 35.76384003992257, -4.3480228403929075, \
      2.0098622683770357, 0.34874904603382723, -0.27143900510483127}, \
    {-45.030072034298676, 0.0, 187.32724376545889, -154.02882369350186, 18.564653063475362, \
      -7.1418096792950791, 1.3088085781613785} \
}
#define ODE_VERN7_B {0.04715561848627222, 0.0, 0.0, 0.25750564298434153, 0.26216653977412618, \
      0.15216092656738558, 0.49399691700324844, -0.29430311714032503, 0.081317472324951096}
#define ODE_VERN7_E {0.0025470118799310456, 0.0, 0.0, -0.0096583948727957496, 0.042064709756396902, \
      -0.066682243746930103, 0.26500974646212816, -0.29430311714032503, 0.081317472324951096, \
      -0.020295184663356284}
#define ODE_VERN7_BETA1 (7.0 / 70)
#define ODE_VERN7_BETA2 (2.0 / 35)
#define ODE_VERN7_SAFETY 0.9
#define ODE_VERN7_HOLD 0

/* ================================================================== Rosenbrock methods
 * Linearly implicit methods for stiff problems (rosenbrock.h), in Hairer's
 * transformed form (Hairer & Wanner, Solving ODE II, §IV.7, as rodas.f and
 * OrdinaryDiffEq's Rosenbrock tableaux write them): with W = I/(hγ) - J,
 * J = ∂f/∂y at (t, y), for i = 1 … STAGES
 *     W U_i = f(t + c_i h, y + Σ_j<i A_ij U_j) + Σ_j<i (COUPLE_ij / h) U_j + h GT_i ∂f/∂t
 *     ynew  = y + Σ B_j U_j,    err = Σ E_j U_j      (E = B - the embedded weights)
 * Per method M (ODE_M_…): STAGES, ORDER, EST and the controller's BETA1,
 * BETA2, SAFETY, HOLD as for the explicit methods; FSAL 0;
 *   GAMMA    the diagonal γ
 *   C        nodes c_i; A, COUPLE the lower triangles (rows, zeros left out)
 *   GT       γ_i = Σ_j γ_ij, the weights of ∂f/∂t
 *   B, E     weights of the solution and of the error estimate
 *   NDENSE, H  rows of the method's own continuous extension over the U_j
 *            (0: the cubic Hermite interpolant, dense.h):
 *            y(θ) = (1-θ) y0 + θ (ynew + (1-θ)(K1 + θ (K2 + θ K3))), K_r = Σ_j H_rj U_j
 * tests/stiff/test_stiff.py reads these blocks, recovers the classical
 * coefficients (α = A Γ, b = B Γ, Γ = (I/γ - COUPLE)^-1) and checks every
 * Rosenbrock order condition (Hairer & Wanner, Table IV.7.1, by rooted trees)
 * of the solution, the embedded solution and the extension. */

/* ------------------------------------------------------------------ rodas5p
 * Steinebach's Rodas5P (G. Steinebach, "Improvement of Rosenbrock-Wanner
 * method RODASP", in: Progress in Differential-Algebraic Equations II, 2020;
 * the coefficients of OrdinaryDiffEq's Rodas5PTableau): order 5 with an
 * embedded order 4, 8 stages, L-stable and stiffly accurate (stages 6–8 sit
 * at c = 1, ynew = u_8 + U_8, the error estimate is U_8); continuous
 * extension of order 4 (three rows H).  Standard controller as Hairer's
 * rodas.f (without its predictive variant): 0.9 · err^(-1/5), no growth
 * right after a rejection. */
#define ODE_RODAS5P_STAGES 8
#define ODE_RODAS5P_ORDER 5
#define ODE_RODAS5P_EST 4
#define ODE_RODAS5P_FSAL 0
#define ODE_RODAS5P_GAMMA 0.21193756319429014
#define ODE_RODAS5P_C {0.0, 0.6358126895828704, 0.4095798393397535, 0.9769306725060716, 0.4288403609558664, \
      1.0, 1.0, 1.0}
#define ODE_RODAS5P_A { \
    {0.0}, \
    {3.0}, \
    {2.849394379747939, 0.45842242204463923}, \
    {-6.954028509809101, 2.489845061869568, -10.358996098473584}, \
    {2.8029986275628964, 0.5072464736228206, -0.3988312541770524, -0.04721187230404641}, \
    {-7.502846399306121, 2.561846144803919, -11.627539656261098, -0.18268767659942256, 0.030198172008377946}, \
    {-7.502846399306121, 2.561846144803919, -11.627539656261098, -0.18268767659942256, 0.030198172008377946, \
      1.0}, \
    {-7.502846399306121, 2.561846144803919, -11.627539656261098, -0.18268767659942256, 0.030198172008377946, \
      1.0, 1.0} \
}
#define ODE_RODAS5P_COUPLE { \
    {0.0}, \
    {-14.155112264123755}, \
    {-17.97296035885952, -2.859693295451294}, \
    {147.12150275711716, -1.41221402718213, 71.68940251302358}, \
    {165.43517024871676, -0.4592823456491126, 42.90938336958603, -5.961986721573306}, \
    {24.854864614690072, -3.0009227002832186, 47.4931110020768, 5.5814197821558125, -0.6610691825249471}, \
    {30.91273214028599, -3.1208243349937974, 77.79954646070892, 34.28646028294783, -19.097331116725623, \
      -28.087943162872662}, \
    {37.80277123390563, -3.2571969029072276, 112.26918849496327, 66.9347231244047, -40.06618937091002, \
      -54.66780262877968, -9.48861652309627} \
}
#define ODE_RODAS5P_GT {0.21193756319429014, -0.42387512638858027, -0.3384627126235924, 1.8046452872882734, \
      2.325825639765069, 0.0, 0.0, 0.0}
#define ODE_RODAS5P_B {-7.502846399306121, 2.561846144803919, -11.627539656261098, -0.18268767659942256, \
      0.030198172008377946, 1.0, 1.0, 1.0}
#define ODE_RODAS5P_E {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0}
#define ODE_RODAS5P_NDENSE 3
#define ODE_RODAS5P_H { \
    {25.948786856663858, -2.5579724845846235, 10.433815404888879, -2.3679251022685204, 0.524948541321073, \
      1.1241088310450404, 0.4272876194431874, -0.17202221070155493}, \
    {-9.91568850695171, -0.9689944594115154, 3.0438037242978453, -24.495224566215796, 20.176138334709044, \
      15.98066361424651, -6.789040303419874, -6.710236069923372}, \
    {11.419903575922262, 2.8879645146136994, 72.92137995996029, 80.12511834622643, -52.072871366152654, \
      -59.78993625266729, -0.15582684282751913, 4.883087185713722} \
}
#define ODE_RODAS5P_BETA1 (1.0 / 5)
#define ODE_RODAS5P_BETA2 0.0
#define ODE_RODAS5P_SAFETY 0.9
#define ODE_RODAS5P_HOLD 1

/* ------------------------------------------------------------------ ros3p
 * Lang & Verwer's ROS3P (BIT 41 (2001) 731–738): order 3 with an embedded
 * order 2, 3 stages, A-stable, no order reduction on parabolic problems;
 * γ = 1/2 + √3/6.  Exact values (17 digits): A21 = A31 = 1/γ = 3 - √3,
 * COUPLE = (-(3 - √3)², -2√3, -√3), B = (2, 1/√3, 1 - 1/√3), embedded
 * weights (5(1 - 1/√3), 1, 1 - 1/√3), GT = (γ, γ - 1, -(1/2 + √3/3)).
 * Continuous extension: the cubic Hermite interpolant (the method defines
 * none of its own).  Standard controller: 0.9 · err^(-1/3), no growth right
 * after a rejection. */
#define ODE_ROS3P_STAGES 3
#define ODE_ROS3P_ORDER 3
#define ODE_ROS3P_EST 2
#define ODE_ROS3P_FSAL 0
#define ODE_ROS3P_GAMMA 0.78867513459481287
#define ODE_ROS3P_C {0.0, 1.0, 1.0}
#define ODE_ROS3P_A { \
    {0.0}, \
    {1.2679491924311228}, \
    {1.2679491924311228, 0.0} \
}
#define ODE_ROS3P_COUPLE { \
    {0.0}, \
    {-1.6076951545867362}, \
    {-3.4641016151377544, -1.7320508075688772} \
}
#define ODE_ROS3P_GT {0.78867513459481287, -0.21132486540518711, -1.0773502691896257}
#define ODE_ROS3P_B {2.0, 0.57735026918962573, 0.42264973081037421}
#define ODE_ROS3P_E {-0.11324865405187118, -0.42264973081037421, 0.0}
#define ODE_ROS3P_NDENSE 0
#define ODE_ROS3P_BETA1 (1.0 / 3)
#define ODE_ROS3P_BETA2 0.0
#define ODE_ROS3P_SAFETY 0.9
#define ODE_ROS3P_HOLD 1

/* ------------------------------------------------------------------ the chosen method */

#if ODE_METHOD == ODE_METH_EULER
#define ODE_TAB(x) ODE_EULER_##x
#define ODE_METHOD_NAME "euler"
#elif ODE_METHOD == ODE_METH_MODEULER
#define ODE_TAB(x) ODE_MODEULER_##x
#define ODE_METHOD_NAME "modeuler"
#elif ODE_METHOD == ODE_METH_RK4
#define ODE_TAB(x) ODE_RK4_##x
#define ODE_METHOD_NAME "rk4"
#elif ODE_METHOD == ODE_METH_RKCK45
#define ODE_TAB(x) ODE_RKCK45_##x
#define ODE_METHOD_NAME "rkck45"
#elif ODE_METHOD == ODE_METH_DOPRI5
#define ODE_TAB(x) ODE_DOPRI5_##x
#define ODE_METHOD_NAME "dopri5"
#elif ODE_METHOD == ODE_METH_TSIT5
#define ODE_TAB(x) ODE_TSIT5_##x
#define ODE_METHOD_NAME "tsit5"
#elif ODE_METHOD == ODE_METH_DOP853
#define ODE_TAB(x) ODE_DOP853_##x
#define ODE_METHOD_NAME "dop853"
#define ODE_ERR_DOP853 1     /* Hairer's combined error estimate */
#elif ODE_METHOD == ODE_METH_VERN7
#define ODE_TAB(x) ODE_VERN7_##x
#define ODE_METHOD_NAME "vern7"
#elif ODE_METHOD == ODE_METH_RODAS5P
#define ODE_TAB(x) ODE_RODAS5P_##x
#define ODE_METHOD_NAME "rodas5p"
#elif ODE_METHOD == ODE_METH_ROS3P
#define ODE_TAB(x) ODE_ROS3P_##x
#define ODE_METHOD_NAME "ros3p"
#elif ODE_METHOD == ODE_METH_DISCRETE
#define ODE_TAB(x) ODE_EULER_##x   /* (map.h iterates; the stepper's tables are not used) */
#define ODE_METHOD_NAME "discrete"
#elif ODE_METHOD == ODE_METH_MILSTEIN
#define ODE_TAB(x) ODE_EULER_##x
#define ODE_METHOD_NAME "milstein"
#elif ODE_METHOD == ODE_METH_WEAK2
#define ODE_TAB(x) ODE_EULER_##x
#define ODE_METHOD_NAME "weak2"
#elif ODE_METHOD == ODE_METH_SYMPLECTIC
#define ODE_TAB(x) ODE_EULER_##x
#define ODE_METHOD_NAME "ymp"
#else
#error "ODE_METHOD: no such method"
#endif

#define ODE_NSTAGE ODE_TAB(STAGES)
#define ODE_DISCRETE (ODE_METHOD == ODE_METH_DISCRETE)
#define ODE_ORDER ODE_TAB(ORDER)
#define ODE_FSAL ODE_TAB(FSAL)
#define ODE_ADAPTIVE (ODE_TAB(EST) > 0)
#ifndef ODE_ERR_DOP853
#define ODE_ERR_DOP853 0
#endif
/* A linearly implicit method (rosenbrock.h), and whether it has a continuous
 * extension of its own (else the cubic Hermite interpolant). */
#define ODE_ROSENBROCK (ODE_METHOD == ODE_METH_RODAS5P || ODE_METHOD == ODE_METH_ROS3P)
#define ODE_ROS_DENSE (ODE_ROSENBROCK && ODE_NDENSE > 0)

/* Rows of the method's own continuous extension (0: cubic Hermite) and the
 * extra stages they need. */
#define ODE_NDENSE ODE_TAB(NDENSE)
#if ODE_METHOD == ODE_METH_DOP853
#define ODE_NEXTRA ODE_DOP853_NEXTRA
#else
#define ODE_NEXTRA 0
#endif

/* Stage derivatives of one step, K[0 .. ODE_NK-1]: the trial's stages, then
 * (unless FSAL made it the last stage) f at the step's end, ODE_KEND, then
 * the extension's extra stages.  A Rosenbrock method keeps f(t, y) in K[0],
 * its stages' solutions U_1 … U_s in K[1 .. s] and f at the step's end in
 * K[s+1]. */
#if ODE_ROSENBROCK
#define ODE_KEND (ODE_NSTAGE + 1)
#else
#define ODE_KEND (ODE_FSAL ? ODE_NSTAGE - 1 : ODE_NSTAGE)
#endif
#define ODE_NK (ODE_KEND + 1 + ODE_NEXTRA)

#endif /* ODE_TABLEAUX_H */
