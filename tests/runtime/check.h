/* check.h — the tests' checking macros: a failed check prints where and
 * what, counts, and the test goes on. */
#ifndef ODE_TEST_CHECK_H
#define ODE_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int failures;

#define CHECK(cond)                                                             \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                         \
        }                                                                       \
    } while (0)

#define CHECK_RC(call, want)                                                    \
    do {                                                                        \
        int rc_ = (call);                                                       \
        if (rc_ != (want)) {                                                    \
            fprintf(stderr, "%s:%d: %s returned %d, expected %d\n", __FILE__, __LINE__, #call, rc_, (want)); \
            failures++;                                                         \
        }                                                                       \
    } while (0)

#define CHECK_STR(got, want)                                                    \
    do {                                                                        \
        const char *g_ = (got), *w_ = (want);                                   \
        if (!g_ || strcmp(g_, w_) != 0) {                                       \
            fprintf(stderr, "%s:%d: got \"%s\"\n    expected \"%s\"\n", __FILE__, __LINE__, g_ ? g_ : "(null)", w_); \
            failures++;                                                         \
        }                                                                       \
    } while (0)

/* The end of main: a summary line and the exit status. */
static int check_report(const char *test)
{
    if (failures) {
        fprintf(stderr, "%s: %d check%s failed\n", test, failures, failures == 1 ? "" : "s");
        return 1;
    }
    printf("%s: all checks passed\n", test);
    return 0;
}

#endif
