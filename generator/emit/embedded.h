/* embedded.h — the template and runtime files, compiled into the translator
 * (see tools/embed.c), by their path in the source tree. */
#ifndef ODEGEN_EMBEDDED_H
#define ODEGEN_EMBEDDED_H

#include <stddef.h>

typedef struct EmbeddedFile {
    const char *path;   /* e.g. "templates/solver.h" */
    const char *text;
    size_t len;
} EmbeddedFile;

extern const EmbeddedFile embedded_files[];   /* ends with a NULL path */

const EmbeddedFile *embedded_find(const char *path);

#endif
