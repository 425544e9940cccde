/* model_name.c — the model's name, from its file's: a C identifier that
 * prefixes the library's API (NAME_solver_create, NAME_STATE_X, NAME.h).
 *
 * The file's base name, without its extension, with every character that a C
 * identifier cannot hold made '_'; prefixed with "m_" when it starts with a
 * digit or '_' (the compiler's), or when its prefixes would be those of names
 * the generated code or its headers already use: `ode.ode` would make
 * ODE_STATUS_FINISHED twice (issue 19, D14), `w.ode` a W_OK that unistd.h
 * defines.  tests/names/test_model_names.py tries every family of identifiers
 * of the generated code, its headers (math.h, OpenMP, MPI, HDF5), the C and
 * POSIX headers a user's program includes, and their macros as a model's name. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "base/arena.h"
#include "check/checker.h"

/* Families of identifiers that are taken (case-insensitive: the name itself,
 * or the name followed by '_' and more), and whose they are. */
static const struct {
    const char *family, *owner;
} taken[] = {
    {"ode", "odegen's own"}, {"odegen", "odegen's own"}, {"mpi", "MPI's"},  {"pmpi", "MPI's"},
    {"ompi", "MPI's"},       {"opal", "MPI's"},          {"omp", "OpenMP's"}, {"cuda", "CUDA's"},
};

/* Whole names whose API would meet a macro of a header that a user's program
 * includes before NAME.h: unistd.h defines W_OK, R_OK, X_OK and F_OK, which
 * would replace the API's NAME_OK. */
static const char *const taken_whole[] = {"w", "r", "x", "f"};

static bool in_family(const char *name, const char *family)
{
    size_t n = strlen(family);
    return !strncasecmp(name, family, n) && (name[n] == '\0' || name[n] == '_');
}

const char *model_name_from_path(const char *path, const char **why)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    const char *dot = strrchr(base, '.');
    if (dot && dot != base) n = (size_t)(dot - base);
    char *id = arena_alloc(n + 1);
    *why = NULL;
    for (size_t i = 0; i < n; i++) {
        bool ok = isalnum((unsigned char)base[i]) || base[i] == '_';
        id[i] = ok ? base[i] : '_';
        if (!ok) *why = "C names: letters, digits and _";
    }
    id[n] = '\0';
    const char *prefix_why = NULL;
    if (n == 0 || isdigit((unsigned char)id[0])) prefix_why = "a C name does not start with a digit";
    else if (id[0] == '_') prefix_why = "a C name that starts with '_' is the compiler's";
    for (size_t k = 0; k < sizeof taken / sizeof *taken && !prefix_why; k++)
        if (in_family(id, taken[k].family)) {
            char *up = arena_strdup(taken[k].family);
            for (char *p = up; *p; p++) *p = (char)toupper((unsigned char)*p);
            prefix_why = arena_printf("%s_… and %s_… are %s names", taken[k].family, up, taken[k].owner);
        }
    for (size_t k = 0; k < sizeof taken_whole / sizeof *taken_whole && !prefix_why; k++)
        if (!strcasecmp(id, taken_whole[k]))
            prefix_why = arena_printf("%c_OK is a macro of unistd.h", toupper((unsigned char)id[0]));
    if (!prefix_why) return id;
    *why = *why ? arena_printf("%s; %s", *why, prefix_why) : prefix_why;
    return arena_printf("m_%s", id);
}
