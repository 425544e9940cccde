/* cnames.c — the C names of user symbols: renamed inside, spelled as declared outside.
 *
 * A user may call a state `int`, `count`, `t0`, `linux`, `stdin`, `EOF` or
 * `threadIdx`; the generated code must compile all the same (Myokit's habit:
 * rename, never reject).  Inside the generated code such a symbol gets a C
 * name with a suffix (`int_u`); every output — the CSV header, the names the
 * library and the runner accept — keeps the declared spelling.  The names in
 * the C API (MODEL_STATE_X, MODEL_FIELD_X) are made unique the same way: a
 * state `t0` is MODEL_FIELD_T0_ next to the window's MODEL_FIELD_T0.
 *
 * What needs renaming is what the C or CUDA compiler sees at the model's code
 * (the headers it includes before it: math.h, stddef.h, stdint.h, and with
 * nvcc cuda_runtime.h, stdlib.h, stdio.h): keywords of C, C++ and CUDA,
 * object-like macros of those headers and of the compilers (`linux`, `unix`),
 * the functions the generated code calls, and odegen's own prefixes.
 * tests/names checks this list against the macros the compilers of the
 * machine really define.
 */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "base/arena.h"
#include "base/builtins.h"
#include "emit/emitter.h"
#include "base/util.h"

static const char *const reserved[] = {
    /* C and C++ keywords (the _Xxx ones start with '_': renamed anyway) */
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
    "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
    "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while",
    "alignas", "alignof", "and", "and_eq", "asm", "bitand", "bitor", "bool", "catch", "char8_t", "char16_t",
    "char32_t", "class", "compl", "concept", "const_cast", "consteval", "constexpr", "constinit", "co_await",
    "co_return", "co_yield", "decltype", "delete", "dynamic_cast", "explicit", "export", "false", "friend",
    "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private",
    "protected", "public", "reinterpret_cast", "requires", "static_assert", "static_cast", "template", "this",
    "thread_local", "throw", "true", "try", "typeid", "typename", "using", "virtual", "wchar_t", "xor", "xor_eq",
    "typeof", "main",
    /* CUDA's built-in variables */
    "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize",
    /* names the generated code declares where user names stand */
    "pi", "t", "count", "i",
    /* functions the generated code calls besides the built-ins' (see below) */
    "pow", "powf", "sincos", "sincosf",
    /* object-like macros in lower case: predefined (gnu modes), stdio.h, errno.h, math.h */
    "linux", "unix", "i386", "i686", "stdin", "stdout", "stderr", "errno", "math_errhandling", "P_tmpdir",
    "L_tmpnam", "L_ctermid", "L_cuserid", "alloca", "assert", "offsetof", "signbit", "fpclassify", "isfinite",
    "isinf", "isnan", "isnormal",
    /* object-like macros in capitals that no prefix below covers */
    "BIG_ENDIAN", "BUFSIZ", "BYTE_ORDER", "CHAR_BIT", "CLOCKS_PER_SEC", "EOF", "HUGE_VAL", "HUGE_VALF",
    "HUGE_VALL", "INFINITY", "LITTLE_ENDIAN", "LONG_BIT", "MAXFLOAT", "MAX_CANON", "MAX_INPUT", "NAN",
    "NFDBITS", "NULL", "NZERO", "PDP_ENDIAN", "PIPE_BUF", "TIME_UTC", "FILENAME_MAX", "FOPEN_MAX", "TMP_MAX",
    "IOV_MAX", "LINE_MAX", "RE_DUP_MAX", NULL};

/* Prefixes (matched with their case, whatever follows: M_PIf32) and
 * suffixes (of names in capitals only) of the macros of libc's and CUDA's
 * headers (INT8_MAX, FP_NAN, M_PI, SIGINT, SEEK_SET, CUDART_VERSION, …). */
static const char *const macro_prefixes[] = {
    "M_", "FP_", "INT", "UINT", "SIG", "SCHED_", "CLOCK_", "ADJ_", "LC_", "STA_", "TIMER_", "WCHAR_", "WINT_",
    "SIZE_", "PTRDIFF_", "EXIT_", "RAND_", "MB_", "FD_", "BC_", "CUDA", "CU_", "MOD_", "NL_", "SEEK_", "RENAME_",
    "HUGE_VAL", "SNAN", "MATH_ERR", "PTHREAD_", "LONG_", "ULONG_", "LLONG_", "ULLONG_", "SHRT_", "USHRT_",
    "SCHAR_", "UCHAR_", "CHAR_", "FLT_", "DBL_", "LDBL_", "DECIMAL_", "WN", "WC", "WE", "WIF", "WST", "WT",
    "WU", "WS", "_", NULL};
static const char *const macro_suffixes[] = {"_MAX", "_MIN", "_WIDTH", "_BIT", "_C", NULL};

static bool all_capitals(const char *s)
{
    bool letter = false;
    for (; *s; s++) {
        if (islower((unsigned char)*s)) return false;
        letter |= isupper((unsigned char)*s) != 0;
    }
    return letter;
}

static bool starts_with(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* Whether the C name (already a C identifier) may meet a keyword, a macro or
 * a name of the generated code. */
static bool needs_rename(const char *name)
{
    if (name[0] == '_' || !strncasecmp(name, "ode", 3) || !strncasecmp(name, "cuda", 4)) return true;
    for (const char *const *r = reserved; *r; r++)
        if (!strcmp(*r, name)) return true;
    for (const Builtin *b = builtin_table; b->name; b++)
        if (!strcmp(b->c_double, name) || !strcmp(b->c_float, name)) return true;
    for (const char *const *p = macro_prefixes; *p; p++)   /* M_PI, but also M_PIf32 and M_El */
        if (starts_with(name, *p)) return true;
    if (all_capitals(name))
        for (const char *const *p = macro_suffixes; *p; p++)
            if (ends_with(name, *p)) return true;
    return false;
}

/* The declared name as a C identifier: characters that cannot be in one
 * (the dots of XPPAUT's `aux P.E.`) become '_', and a name that starts with
 * a digit (XPPAUT's temporary `2B`) gets a 'u' in front. */
static const char *identifier_of(const char *name)
{
    char *s = isdigit((unsigned char)name[0]) ? arena_printf("u%s", name) : arena_strdup(name);
    for (char *p = s; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_') *p = '_';
    return s;
}

/* The names given so far (C names, or API names): a set of strings by hash,
 * so that giving n names costs O(n), not n² comparisons (issue 19, D6). */
typedef struct NameSet {
    const char **slots;
    unsigned cap, count;
} NameSet;

static unsigned name_hash(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static const char **name_slot(const NameSet *set, const char *name)
{
    unsigned mask = set->cap - 1, i = name_hash(name) & mask;
    while (set->slots[i] && strcmp(set->slots[i], name)) i = (i + 1) & mask;
    return &set->slots[i];
}

static bool name_taken(const NameSet *set, const char *name) { return set->cap && *name_slot(set, name); }

static void name_add(NameSet *set, const char *name)
{
    if (2 * (set->count + 1) > set->cap) {
        NameSet grown = {arena_alloc(sizeof(char *) * (set->cap ? 2 * set->cap : 64)), set->cap ? 2 * set->cap : 64, 0};
        for (unsigned i = 0; i < set->cap; i++)
            if (set->slots[i]) *name_slot(&grown, set->slots[i]) = set->slots[i], grown.count++;
        *set = grown;
    }
    const char **slot = name_slot(set, name);
    if (!*slot) *slot = name, set->count++;
}

/* A name that starts with '_', 'ode' or 'cuda' gets a 'u' in front: a suffix
 * alone would leave it in the generated code's (or CUDA's) name space. */
static const char *renamed_base(const char *name)
{
    return name[0] == '_' || !strncasecmp(name, "ode", 3) || !strncasecmp(name, "cuda", 4)
               ? arena_printf("u%s", name) : name;
}

/* taken: the C names of the symbols named before this one. */
static const char *cname_for(const NameSet *taken, const Symbol *s)
{
    const char *id = identifier_of(s->name);
    if (!needs_rename(id) && !name_taken(taken, id)) return id;
    /* NAME_u: no keyword, no macro of the headers ends so; only another
     * user name can take it (a user's own `x_u` next to `x`) */
    const char *c = arena_printf("%s_u", renamed_base(id));
    while (name_taken(taken, c)) c = arena_printf("%s_u", c);
    return c;
}

/* ------------------------------------------------------------------ API names */

static const char *capitals(const char *name)
{
    char *u = arena_strdup(identifier_of(name));
    for (char *p = u; *p; p++) *p = (char)toupper((unsigned char)*p);
    return u;
}

/* taken: the API names given so far; the field enum also holds T, T0 and T1
 * (the time and the window). */
static void assign_api(NameSet *taken, Symbol *s)
{
    const char *api = capitals(s->name);
    while (name_taken(taken, api)) api = arena_printf("%s_", api);
    s->api = api;
    name_add(taken, api);
}

void assign_cnames(Model *m)
{
    NameSet cnames = {0}, apis = {0};
    for (int i = 0; i < m->nsyms; i++) {
        Symbol *s = m->syms[i];
        s->cname = s->kind == SYM_FUNC ? arena_printf("ode_fn_%s", s->name) : cname_for(&cnames, s);
        name_add(&cnames, s->cname);
        for (int k = 0; k < s->nargs; k++) {
            Symbol *a = s->args[k];
            a->cname = needs_rename(a->name) ? arena_printf("%s_u", renamed_base(a->name)) : a->name;
        }
    }
    name_add(&apis, "T");
    name_add(&apis, "T0");
    name_add(&apis, "T1");
    for (int i = 0; i < m->nsyms; i++) assign_api(&apis, m->syms[i]);
    for (int i = 0; i < m->nevent; i++)
        if (!m->events[i].sym->api) assign_api(&apis, m->events[i].sym);
}
