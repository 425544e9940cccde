/* example_constants.h — the user-visible constants of the example model
 * (templates/example_model.h), written in exactly the shape that odegen emits
 * at the top of NAME.h, so that runtime/api.h and the tests compile on their
 * own.  In a generated NAME.h this text comes from the generator and this file
 * is absent; `MODEL_` is renamed to the upper-cased model name there.
 *
 * Shape (one line each, in this order):
 *   the counts MODEL_NSTATE … MODEL_NFIELD;
 *   one enum per kind of name, entries MODEL_<KIND>_<UPPER-CASED NAME> = index,
 *   in declaration order; a kind with no names gets no enum (an empty enum is
 *   not C).  Field codes: states, aux, accessories, parameters, derived, then
 *   t, t0, t1 (the order of ode_field_names).
 */
#ifndef MODEL_CONSTANTS_H
#define MODEL_CONSTANTS_H

#define MODEL_NSTATE 2
#define MODEL_NPARAM 2
#define MODEL_NACC 1
#define MODEL_NAUX 0
#define MODEL_NDERIVED 0
#define MODEL_NEVENT 1
#define MODEL_NFIELD 8

enum { MODEL_STATE_Y1 = 0, MODEL_STATE_Y2 = 1 };
enum { MODEL_PARAM_K = 0, MODEL_PARAM_B = 1 };
enum { MODEL_ACC_YMAX = 0 };
enum { MODEL_EVENT_PEAK = 0 };
enum {
    MODEL_FIELD_Y1 = 0,
    MODEL_FIELD_Y2 = 1,
    MODEL_FIELD_YMAX = 2,
    MODEL_FIELD_K = 3,
    MODEL_FIELD_B = 4,
    MODEL_FIELD_T = 5,
    MODEL_FIELD_T0 = 6,
    MODEL_FIELD_T1 = 7
};

#endif /* MODEL_CONSTANTS_H */
