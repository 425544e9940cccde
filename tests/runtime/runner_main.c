/* runner_main.c — what odegen writes as NAME_main.c: the HDF5 output (when
 * built with -DODE_HDF5 and HDF5's headers) and main. */
#define ODEGEN_GENERATED 1
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "output.h"
#include "output_h5.c"
#include "api.h"

int main(int argc, char **argv) { return model_main(argc, argv); }
