/* assembled.c — the example model assembled in the order odegen writes
 * NAME.cu (ODEGEN_GENERATED defined: no file includes another), so that the
 * tests build the runtime exactly as a generated model does:
 *   NAME.h  = model constants + runtime/api.h
 *   NAME.cu = NAME.h, model section, solver.h, driver.h, cpu_loop.h, scan_fill.c,
 *             options.c, library.c, period.c, delay.c, attractor.c, basins.c, save.c, shortest_tables.h, shortest.c, output.h,
 *             output_csv.c, output.c, checkpoint.c, runner.c, runner_save.c, runner_attractors.c,
 *             and with -DODE_MPI (make MPI=1) mpi_watch.c, mpi_chunks.c, mpi_runner.c,
 *             mpi_scan.c
 *   NAME_main.c = output.h, output_h5.c (with -DODE_HDF5), main (runner_main.c)
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
#include "cpu_loop.h"
#include "scan_fill.c"
#include "options.c"
#include "library.c"
#include "period.c"
#include "delay.c"
#include "attractor.c"
#include "basins.c"
#include "shortest_tables.h"
#include "shortest.c"
#include "output.h"
#include "output_csv.c"
#include "output.c"
#include "save.c"
#include "checkpoint.c"
#include "runner.c"
#include "runner_save.c"
#include "runner_attractors.c"
#include "mpi_watch.c"
#include "mpi_chunks.c"
#include "mpi_runner.c"
#include "mpi_scan.c"
