/* util.c — name comparison and file reading. */
#include "base/util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool name_eq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

int name_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 64 || m > 64)
        return 1000;
    int d[65][65];
    for (size_t i = 0; i <= n; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
            int cost = ca != cb;
            int best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < best) best = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;   /* transposition */
            d[i][j] = best;
        }
    return d[n][m];
}

/* 0 if a file of this type may be read, else the errno that says why not. */
static int readable(const struct stat *st, size_t max, bool pipes)
{
    if (S_ISDIR(st->st_mode)) return EISDIR;
    if (!S_ISREG(st->st_mode) && !(pipes && S_ISFIFO(st->st_mode))) return ENODEV;   /* /dev/zero never ends */
    if (S_ISREG(st->st_mode) && (unsigned long long)st->st_size > max) return EFBIG;
    return 0;
}

char *read_file(const char *path, size_t max, bool pipes, size_t *len)
{
    /* The type first, by name: a device or an unwanted pipe is never opened
     * (opening a pipe waits for its writer); then again on what was opened. */
    struct stat st;
    int why = stat(path, &st) != 0 ? errno : readable(&st, max, pipes);
    int fd = why ? -1 : open(path, O_RDONLY | O_CLOEXEC);
    if (!why && fd < 0)
        why = errno;
    if (!why)
        why = fstat(fd, &st) != 0 ? errno : readable(&st, max, pipes);
    size_t cap = 1 << 16, n = 0;
    char *buf = why ? NULL : malloc(cap);
    if (!why && !buf)
        why = ENOMEM;
    while (!why) {
        ssize_t got = read(fd, buf + n, cap - n - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            why = errno;
            break;
        }
        if (got == 0)
            break;
        n += (size_t)got;
        if (n > max) {   /* (a pipe, or a file that grew) */
            why = EFBIG;
            break;
        }
        if (n == cap - 1) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger)
                why = ENOMEM;
            else
                buf = bigger;
        }
    }
    if (fd >= 0)
        close(fd);
    if (why) {
        free(buf);
        errno = why;
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

const char *read_file_error(int err)
{
    switch (err) {
    case ENODEV: return "not a file or a pipe (odegen reads those to their end; a device such as /dev/zero has none)";
    case EFBIG: return "too large";
    default: return strerror(err);
    }
}
