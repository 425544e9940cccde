/* main.c — the odegen command line.
 *
 *   odegen FILE.ode [-o DIR] [--precision double|float] [--option NAME=VALUE]… [--check] [-q]
 *
 * Parses and checks the whole file (reporting every error), then writes the
 * generated files — only when there was no error, and never over a file that
 * odegen did not write itself.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/input_limits.h"
#include "front/ast.h"
#include "front/diag.h"
#include "emit/emit.h"
#include "deriv/needs.h"
#include "deriv/noise.h"
#include "check/model.h"
#include "front/old_format.h"
#include "front/parse.h"
#include "emit/print_jacobian.h"
#include "base/util.h"

static const char usage_text[] =
    "usage: odegen FILE.ode [-o DIR] [--precision double|float] [--option NAME=VALUE]... [--check] [-q]\n"
    "              [--print jacobian]\n"
    "       odegen [OPTION]... -- FILE.ode   (a file whose name starts with '-')\n"
    "  -o DIR         write the generated files into DIR (default: ./NAME, NAME the file's base name)\n"
    "  --precision P  integrate in double (default, or @ prec in the file) or float\n"
    "  --option NAME=VALUE\n"
    "                 an option as if `@ NAME=VALUE` ended the file (it wins over the file's)\n"
    "  --check        parse and check only; write nothing\n"
    "  -q, --quiet    no message when all went well (what was written where)\n"
    "  --print jacobian  print the derivatives of the model (Jacobian, d/dt, d/dp, events, resets); write nothing\n"
    "  --convert      print the file in XPPAUT's new format (a file in XPPAUT's old format rewritten line for\n"
    "                 line, as xppaut -convert does; any other file as it is); write nothing\n";

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

/* Whether odegen may replace path: absent, or a file carrying the marker in
 * its first line.  If not, says why (an error) and returns false. */
static bool ours_or_absent(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT) return true;
        fprintf(stderr, "odegen: error: cannot write '%s': %s\n", path, strerror(errno));
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        fprintf(stderr, "odegen: error: refusing to overwrite '%s': it is not a regular file\n", path);
        return false;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "odegen: error: cannot read '%s' (to see whether odegen wrote it): %s\n", path, strerror(errno));
        return false;
    }
    char line[512] = "";
    bool ours = fgets(line, sizeof line, f) && strstr(line, GENERATED_MARKER);
    fclose(f);
    if (!ours) fprintf(stderr, "odegen: error: refusing to overwrite '%s': it was not written by odegen\n", path);
    return ours;
}

/* The text into a temporary file beside path (NULL, and errno, on failure). */
static const char *write_temporary(const char *path, const Buf *text)
{
    char *tmp = arena_printf("%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wbx");
    if (!f) return NULL;
    bool ok = fwrite(text->data, 1, text->len, f) == text->len;
    ok &= fflush(f) == 0;
    ok &= fclose(f) == 0;
    if (ok) return tmp;
    int saved = errno;
    remove(tmp);
    errno = saved;
    return NULL;
}

/* Every file, or none: each is written beside its place first, and all are
 * moved into place only when all were written. */
static int write_outputs(const char *dir, GeneratedFile files[GENERATED_FILES])
{
    struct stat st;
    if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {   /* -o FILE, -o /dev/full */
        fprintf(stderr, "odegen: error: cannot write into '%s': not a directory\n", dir);
        return 1;
    }
    if (!make_dirs(dir)) {
        fprintf(stderr, "odegen: error: cannot create directory '%s': %s\n", dir, strerror(errno));
        return 1;
    }
    const char *paths[GENERATED_FILES], *tmps[GENERATED_FILES] = {0};
    for (int i = 0; i < GENERATED_FILES; i++) {
        paths[i] = arena_printf("%s/%s", dir, files[i].name);
        if (!ours_or_absent(paths[i])) return 1;
    }
    int failed = -1, saved = 0;
    for (int i = 0; i < GENERATED_FILES && failed < 0; i++)
        if (!(tmps[i] = write_temporary(paths[i], &files[i].text))) failed = i, saved = errno;
    for (int i = 0; i < GENERATED_FILES && failed < 0; i++)
        if (rename(tmps[i], paths[i]) != 0) failed = i, saved = errno;
    if (failed < 0) return 0;
    for (int i = 0; i < GENERATED_FILES; i++)
        if (tmps[i]) remove(tmps[i]);
    fprintf(stderr, "odegen: error: cannot write '%s': %s\n", paths[failed], strerror(saved));
    return 1;
}

/* `--option NAME=VALUE`: an S_ASSIGN as in `@ NAME=VALUE` (a number, else a
 * word such as rkck45), without a place in the file.  NULL if malformed. */
static Node *option_item(const char *text)
{
    const char *eq = strchr(text, '=');
    if (!eq || eq == text || !eq[1]) return NULL;
    char *name = arena_strdup(text);
    name[eq - text] = '\0';
    const char *value = eq + 1;
    Loc nowhere = {0, 0, 0, 0};
    char *end;
    const double v = strtod(value, &end);
    const bool number = *end == '\0' && isfinite(v) && !isalpha((unsigned char)value[0]);
    Node *rhs = number ? ast_num(nowhere, value) : ast_name(nowhere, value);
    return ast_assign(nowhere, nowhere, name, rhs);
}

/* The options of the command line, after the file's declarations. */
static void append_options(Program *prog, Node *items)
{
    if (!items) return;
    Loc nowhere = {0, 0, 0, 0};
    Node *decl = ast_new(D_OPTIONS, nowhere);
    decl->items = items;
    prog->decls = ast_append(prog->decls, decl);
}

/* The file's parameter sets, one a line, for --check (what --set-name can choose). */
static void print_sets(const Model *m, FILE *f)
{
    for (int k = 0; k < m->nset; k++) {
        const ParamSet *ps = &m->sets[k];
        fprintf(f, "set %s (line %d): ", ps->name, ps->line);
        for (int i = 0; i < ps->n; i++) {
            int p = 1;      /* the shortest that reads back */
            char buf[40];
            do snprintf(buf, sizeof buf, "%.*g", p, ps->values[i]);
            while (strtod(buf, NULL) != ps->values[i] && ++p <= 17);
            fprintf(f, "%s%s=%s", i ? ", " : "", ps->targets[i] ? ps->targets[i]->name : ps->options[i], buf);
        }
        fprintf(f, "   (runner: --set-name %s)\n", ps->name);
    }
}

/* Says what was written where, and how to build it; and why the model's
 * name is not the file's base name, when it is not. */
static void report_written(const Model *m, const char *path, const char *dir, GeneratedFile files[GENERATED_FILES])
{
    fprintf(stderr, "odegen: wrote %s/:", dir);
    for (int i = 0; i < GENERATED_FILES; i++) fprintf(stderr, "%s %s", i ? "," : "", files[i].name);
    fprintf(stderr, "\nodegen: build with: make -C %s   (the runner %s/%s and the library %s/lib%s.a)\n", dir, dir,
            m->name, dir, m->name);
    const char *base = strrchr(path, '/');
    if (m->name_why)
        fprintf(stderr, "odegen: note: the model's name is '%s', from '%s' (%s)\n", m->name, base ? base + 1 : path,
                m->name_why);
}

int main(int argc, char **argv)
{
    const char *path = NULL, *dir = NULL;
    int precision = -1;
    bool check_only = false, dump_ast = false, plain_trig = false, quiet = false, print_jac = false, convert = false;
    Node *options = NULL;
    bool options_end = false;   /* after `--`: a file, whatever it starts with */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!options_end && !strcmp(a, "--")) {
            options_end = true;
        } else if (options_end) {
            if (path) {
                fprintf(stderr, "odegen: error: one .ode file at a time ('%s' and '%s')\n", path, a);
                return 2;
            }
            path = a;
        } else if (!strcmp(a, "--option")) {
            Node *item = i + 1 < argc ? option_item(argv[i + 1]) : NULL;
            if (!item) {
                fprintf(stderr, "odegen: error: --option needs NAME=VALUE%s%s%s\n%s", i + 1 < argc ? ", not '" : "",
                        i + 1 < argc ? argv[i + 1] : "", i + 1 < argc ? "'" : "", usage_text);
                return 2;
            }
            options = ast_append(options, item);
            i++;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--precision")) {
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
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            quiet = true;
        } else if (!strcmp(a, "--check")) {
            check_only = true;
        } else if (!strcmp(a, "--convert")) {
            convert = true;
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
    char *text = read_file(path, MODEL_MAX_BYTES, true, &len);
    if (!text) {
        if (errno == EFBIG)
            fprintf(stderr, "odegen: error: cannot read '%s': larger than " MODEL_MAX_TEXT ", the largest model odegen "
                            "reads\n", path);
        else
            fprintf(stderr, "odegen: error: cannot read '%s': %s\n", path, read_file_error(errno));
        return 1;
    }
    diag_set_source(path, text, len);
    if (convert) {      /* XPPAUT's old format in the new one (front/old_format.c) */
        size_t new_len;
        const char *rewritten = old_format_rewrite(text, len, &new_len);
        fwrite(rewritten ? rewritten : text, 1, rewritten ? new_len : len, stdout);
        int n = diag_error_count();
        free(text);
        arena_free_all();
        return n ? 1 : 0;
    }
    Program *prog = parse_program(path, text, len);
    if (dump_ast) {   /* the parser's view only: no checks */
        ast_dump(prog, stdout);
        int n = diag_error_count();
        free(text);
        arena_free_all();
        return n ? 1 : 0;
    }
    append_options(prog, options);
    Model *m = check_program(prog, precision);
    /* what lyapunov and a stiff method need of the derivatives (deriv/needs.c) */
    if (m && !check_lyapunov_derivatives(m)) m = NULL;
    if (m && !print_jac && !method_check_derivatives(m)) m = NULL;   /* a stiff method on a model it cannot differentiate */
    if (m && !noise_check_methods(m)) m = NULL;   /* what the method can do with the noise (deriv/noise.c) */
    int status = diag_error_count() ? 1 : 0;
    if (m) m->plain_trig = plain_trig;
    if (m && check_only) print_sets(m, stdout);   /* what --set-name can choose */
    if (m && print_jac) {
        status = print_jacobian(m, stdout);
    } else if (m && !check_only && !dump_ast) {
        GeneratedFile files[GENERATED_FILES];
        emit_model(m, files);
        status = write_outputs(dir ? dir : m->name, files);
        if (status == 0 && !quiet) report_written(m, path, dir ? dir : m->name, files);
        for (int i = 0; i < GENERATED_FILES; i++) buf_free(&files[i].text);
    }
    if (diag_error_count()) {
        int n = diag_error_count();
        fprintf(stderr, "%d error%s; nothing written\n", n, n == 1 ? "" : "s");
        if (options) {
            fprintf(stderr, "(with the options of the command line:");
            for (Node *it = options; it; it = it->next)
                fprintf(stderr, " --option %s=%s", it->name, it->rhs->kind == N_NUM ? it->rhs->text : it->rhs->name);
            fputs(")\n", stderr);
        }
    }
    free(text);
    arena_free_all();
    return status;
}
