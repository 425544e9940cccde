/* embedded_find.c — lookup of an embedded template by path. */
#include <string.h>

#include "emit/embedded.h"

const EmbeddedFile *embedded_find(const char *path)
{
    for (const EmbeddedFile *f = embedded_files; f->path; f++)
        if (!strcmp(f->path, path))
            return f;
    return NULL;
}
