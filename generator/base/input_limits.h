/* input_limits.h — the largest inputs the translator takes, in one place (each is
 * in README.md, "Limits"): beyond them it stops with a message that names the
 * limit, instead of running out of time or memory (issue 19). */
#ifndef ODEGEN_INPUT_LIMITS_H
#define ODEGEN_INPUT_LIMITS_H

/* A .ode file: 16 MiB, some 40 times a generated model of 20000 states (a
 * file, or a pipe read to its end; a device such as /dev/zero is refused). */
#define MODEL_MAX_BYTES (16u * 1024 * 1024)
#define MODEL_MAX_TEXT "16 MiB"

/* The terms that the sums of one file write out, in all: odegen writes every
 * term into the generated code, and the C compiler's time grows faster than
 * their number (here, with cc -O2: a sum of 100 terms of sin(i'*x) adds 3 s,
 * of 1000 terms 41 s, of 3000 terms 300 s and 1.7 GB; XPPAUT's kuramot100.ode,
 * 10^4 terms, did not compile in 5 minutes).  Beyond, a sum is an error at
 * its line, until sums are kept as loops. */
#define SUM_MAX_TERMS 1000
#define SUM_MAX_TERMS_TEXT "1000"

/* A table's number of values (computed, or read from a file): 10^7. */
#define TABLE_MAX_POINTS 10000000
#define TABLE_MAX_POINTS_TEXT "10^7"

/* A table file (`table f FILE`): 256 MiB. */
#define TABLE_FILE_MAX_BYTES (256u * 1024 * 1024)
#define TABLE_FILE_MAX_TEXT "256 MiB"

#endif
