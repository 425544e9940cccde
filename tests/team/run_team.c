/* run_team.c — the same model in loop form (MODEL_LOOP), integrated by the
 * team integrator as a generated file assembles it: by emulated teams of
 * any size (lanes in either order), or by the CPU path itself (cpu_loop.h:
 * a team of one per OpenMP iteration).  The other side of test_integrate.c. */
#define _DEFAULT_SOURCE 1   /* ucontext, _setjmp (emulate.c) */
#define ODEGEN_GENERATED 1
#define ODE_TEAM_EMULATE 1
#include <stdio.h>
#include MODEL_LOOP
#include "tableaux.h"
#include "stepper.h"
#include "dense.h"
#include "event_rules.h"
#include "events.h"
#include "firing.h"
#include "save.h"
#include "integrate.h"
#include "team_stepper.h"
#include "team_dense.h"
#include "team_events.h"
#include "team_save.h"
#include "team_integrate.h"
#include "team_driver.h"
#include "cpu_loop.h"
#include "emulate.h"
#include "emulate.c"
#include "scan.h"
#include "sides.h"

#include "team_side.h"
