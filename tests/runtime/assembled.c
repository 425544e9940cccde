/* assembled.c — the example model assembled in the order odegen writes
 * NAME.cu (ODEGEN_GENERATED defined: no file includes another), so that the
 * tests build the runtime exactly as a generated model does:
 *   NAME.h  = model constants + runtime/api.h
 *   NAME.cu = NAME.h, model section, solver.h, driver.h, library.c, save.c,
 *             runner.c, runner_save.c
 * Built with gcc as C (CPU only) and with nvcc as CUDA C++ (run.sh). */
#define ODEGEN_GENERATED 1
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "example_constants.h"
#include "api.h"
#include "example_model.h"
#include "solver.h"
#include "driver.h"
#include "library.c"
#include "save.c"
#include "runner.c"
#include "runner_save.c"
