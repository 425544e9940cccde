/* solver.h — the solver's templates in the order odegen appends them to a
 * generated NAME.cu, for compiling the templates on their own (the runtime
 * tests' assembled.c, test_api.c).  One job per file:
 *
 *   tableaux.h   the methods' Butcher tableaux, as data
 *   stepper.h    one trial step of any of them, and the error ratio
 *   stability.h  a fixed-step method that left its stability region
 *   dense.h      the continuous extension of an accepted step
 *   rosenbrock.h the stiff methods' trial step (and Rodas5P's extension)
 *   event_rules.h what makes an event fire (shared with team_events.h)
 *   sde.h        a step with noise: its draws, the SDE methods' trial steps
 *   symplectic.h XPPAUT's symplectic method (meth=ymp): its trial step
 *   events.h     event detection on the extension, location of crossings
 *   save.h       `save` samples from the extension
 *   tangent.h    tangent vectors, saltation, QR (`lyapunov`)
 *   period.h     the period of the recorded sequence (`period`)
 *   firing.h     what happens where events were detected; XPPAUT's rules
 *                for its `global`s (carried across zero, `global 0`)
 *   attractor.h  each system's fingerprint (`attractor`)
 *   map.h        one iteration window of a map (x(t+1)=…, meth=discrete)
 *   delay.h      delay(x, tau): the ring of stored steps, breaking points
 *   integrate.h  one integration: step control, events, samples, hooks
 */
#ifndef ODE_SOLVER_H
#define ODE_SOLVER_H

#include "tableaux.h"
#include "stepper.h"
#include "stability.h"
#include "dense.h"
#include "rosenbrock.h"
#include "event_rules.h"
#include "sde.h"
#include "symplectic.h"
#include "events.h"
#include "save.h"
#include "tangent.h"
#include "period.h"
#include "firing.h"
#include "attractor.h"
#include "map.h"
#include "delay.h"
#include "integrate.h"

#endif /* ODE_SOLVER_H */
