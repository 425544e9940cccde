/* main.c — the odegen command line.
 *
 *   odegen FILE.ode [-o DIR] [--precision double|float] [--check]
 *
 * Parses and checks the whole file (reporting every error), then writes the
 * generated files — only when there was no error, and never over a file that
 * odegen did not write itself.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "emit.h"
#include "model.h"
#include "parse.h"
#include "print_jacobian.h"
#include "util.h"

static const char usage_text[] =
    "usage: odegen FILE.ode [-o DIR] [--precision double|float] [--check] [--print jacobian]\n"
    "  -o DIR         write the generated files into DIR (default: ./NAME, NAME the file's base name)\n"
    "  --precision P  integrate in double (default, or @ prec in the file) or float\n"
    "  --check        parse and check only; write nothing\n"
    "  --print jacobian  print the derivatives of the model (Jacobian, d/dt, d/dp, events, resets); write nothing\n";

/* mkdir -p */
static bool make_dirs(const char *path)
{
    char *p = arena_strdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST) return false;
        *s = '/';
    }
    return mkdir(p, 0777) == 0 || errno == EEXIST;
}

/* A file odegen may replace: absent, or carrying the marker in its first line. */
static bool ours_or_absent(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return errno == ENOENT;
    char line[512] = "";
    bool ours = fgets(line, sizeof line, f) && strstr(line, GENERATED_MARKER);
    fclose(f);
    return ours;
}

static bool write_file(const char *path, const Buf *text)
{
    char *tmp = arena_printf("%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) return false;
    bool ok = fwrite(text->data, 1, text->len, f) == text->len;
    ok &= fclose(f) == 0;
    if (ok && rename(tmp, path) == 0) return true;
    int saved = errno;
    remove(tmp);
    errno = saved;
    return false;
}

static int write_outputs(const char *dir, GeneratedFile files[GENERATED_FILES])
{
    if (!make_dirs(dir)) {
        fprintf(stderr, "odegen: error: cannot create directory '%s': %s\n", dir, strerror(errno));
        return 1;
    }
    for (int i = 0; i < GENERATED_FILES; i++) {
        const char *path = arena_printf("%s/%s", dir, files[i].name);
        if (!ours_or_absent(path)) {
            fprintf(stderr, "odegen: error: refusing to overwrite '%s': it was not written by odegen\n", path);
            return 1;
        }
    }
    for (int i = 0; i < GENERATED_FILES; i++) {
        const char *path = arena_printf("%s/%s", dir, files[i].name);
        if (!write_file(path, &files[i].text)) {
            fprintf(stderr, "odegen: error: cannot write '%s': %s\n", path, strerror(errno));
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = NULL, *dir = NULL;
    int precision = -1;
    bool check_only = false, dump_ast = false, plain_trig = false, print_jac = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-o") || !strcmp(a, "--precision")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "odegen: error: %s needs a value\n%s", a, usage_text);
                return 2;
            }
            const char *v = argv[++i];
            if (a[1] == 'o') dir = v;
            else if (!strcmp(v, "double")) precision = 0;
            else if (!strcmp(v, "float")) precision = 1;
            else {
                fprintf(stderr, "odegen: error: --precision must be double or float, not '%s'\n", v);
                return 2;
            }
        } else if (!strcmp(a, "--print")) {
            if (i + 1 >= argc || strcmp(argv[i + 1], "jacobian")) {
                fprintf(stderr, "odegen: error: --print takes 'jacobian'%s%s%s\n", i + 1 < argc ? ", not '" : "",
                        i + 1 < argc ? argv[i + 1] : "", i + 1 < argc ? "'" : "");
                return 2;
            }
            print_jac = true;
            i++;
        } else if (!strcmp(a, "--check")) {
            check_only = true;
        } else if (!strcmp(a, "--dump-ast")) {
            dump_ast = true;
        } else if (!strcmp(a, "--no-time-trig")) {   /* for benchmarks: the plain RHS */
            plain_trig = true;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage_text, stdout);
            return 0;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "odegen: error: unknown option '%s'\n%s", a, usage_text);
            return 2;
        } else if (path) {
            fprintf(stderr, "odegen: error: one .ode file at a time ('%s' and '%s')\n", path, a);
            return 2;
        } else {
            path = a;
        }
    }
    if (!path) {
        fputs(usage_text, stderr);
        return 2;
    }
    size_t len;
    char *text = read_file(path, &len);
    if (!text) {
        fprintf(stderr, "odegen: error: cannot read '%s': %s\n", path, strerror(errno));
        return 1;
    }
    diag_set_source(path, text, len);
    Program *prog = parse_program(path, text, len);
    if (dump_ast) {   /* the parser's view only: no checks */
        ast_dump(prog, stdout);
        int n = diag_error_count();
        free(text);
        arena_free_all();
        return n ? 1 : 0;
    }
    Model *m = check_program(prog, precision);
    int status = diag_error_count() ? 1 : 0;
    if (m) m->plain_trig = plain_trig;
    if (m && print_jac) {
        status = print_jacobian(m, stdout);
    } else if (m && !check_only && !dump_ast) {
        GeneratedFile files[GENERATED_FILES];
        emit_model(m, files);
        status = write_outputs(dir ? dir : m->name, files);
        for (int i = 0; i < GENERATED_FILES; i++) buf_free(&files[i].text);
    }
    if (diag_error_count()) {
        int n = diag_error_count();
        fprintf(stderr, "%d error%s; nothing written\n", n, n == 1 ? "" : "s");
    }
    free(text);
    arena_free_all();
    return status;
}
