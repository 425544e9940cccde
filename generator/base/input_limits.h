/* input_limits.h — the largest inputs the translator takes, in one place (each is
 * in README.md, "Limits"): beyond them it stops with a message that names the
 * limit, instead of running out of time or memory (issue 19). */
#ifndef ODEGEN_INPUT_LIMITS_H
#define ODEGEN_INPUT_LIMITS_H

/* A .ode file: 16 MiB, some 40 times a generated model of 20000 states (a
 * file, or a pipe read to its end; a device such as /dev/zero is refused). */
#define MODEL_MAX_BYTES (16u * 1024 * 1024)
#define MODEL_MAX_TEXT "16 MiB"

/* A table's number of values (computed, or read from a file): 10^7. */
#define TABLE_MAX_POINTS 10000000
#define TABLE_MAX_POINTS_TEXT "10^7"

/* A table file (`table f FILE`): 256 MiB. */
#define TABLE_FILE_MAX_BYTES (256u * 1024 * 1024)
#define TABLE_FILE_MAX_TEXT "256 MiB"

#endif
