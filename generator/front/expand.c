/* expand.c — XPPAUT's arrays (x[1..3]'=…[j]…, %[1..3] … %) as scalar statements,
 * or kept as arrays.
 *
 * The lexer keeps an indexed name as one name token, brackets included
 * ("x[j+1]"), and a bracket that stands alone as a number token whose text is
 * the bracket ("[j]").  This pass finds the range of each statement (or of
 * the %-block around it), copies the statement once per j, and replaces every
 * bracket by its value: "x[j+1]" becomes "x4" for j = 3, "[j]" the number 3.
 * What XPPAUT does with the text of the line, done on the tree.
 *
 * In a model whose arrays stay arrays (expand.h: ARRAY_LOOP_MIN), an
 * equation, temporary or aux with a range is copied once, its j-brackets
 * kept (whole-number brackets still replaced) and its range in Node.array;
 * check/arrays.c reads the brackets with j as the loop's index.
 */
#include "front/expand.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/arena.h"
#include "base/input_limits.h"
#include "front/diag.h"

enum { MAX_INDEX = 1000000, MAX_COPIES = 100000 };

/* What the arrays of one file may write out in all: beyond, the generated
 * code would not compile in any reasonable time anyway.  (Sums: at most
 * SUM_MAX_TERMS terms in all, base/input_limits.h.) */
enum { MAX_STATEMENTS = 1000000 };
static long statements_written, terms_written;

/* ------------------------------------------------------------------ the bracket's text */

static const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* A whole number with an optional sign; false when there is none. */
static bool whole_number(const char **pp, const char *end, long *out)
{
    const char *p = skip_blanks(*pp, end);
    int sign = 1;
    if (p < end && (*p == '+' || *p == '-')) {
        sign = *p == '-' ? -1 : 1;
        p = skip_blanks(p + 1, end);
    }
    if (p == end || !isdigit((unsigned char)*p))
        return false;
    long v = 0;
    while (p < end && isdigit((unsigned char)*p)) {
        if (v <= MAX_INDEX)
            v = 10 * v + (*p - '0');
        p++;
    }
    *out = sign * v;
    *pp = skip_blanks(p, end);
    return true;
}

static const char *const INDEX_FORMS =
    "XPPAUT's array index is j, j+N, j-N, j*N or a whole number N, and a range is [FIRST..LAST]";

const char *index_parse(const char *text, size_t len, Index *ix)
{
    const char *p = text, *end = text + len;
    memset(ix, 0, sizeof *ix);
    const char *dots = NULL;
    for (const char *q = text; q + 1 < end; q++)
        if (q[0] == '.' && q[1] == '.') {
            dots = q;
            break;
        }
    if (dots) {
        const char *a = text, *b = dots + 2;
        long first, last;
        if (!whole_number(&a, dots, &first) || a != dots || !whole_number(&b, end, &last) || b != end)
            return "an array range is [FIRST..LAST] with whole numbers (XPPAUT reads a name there as 0)";
        if (labs(first) > MAX_INDEX || labs(last) > MAX_INDEX)
            return "an array bound is larger than a million";
        if (labs(last - first) >= MAX_COPIES)
            return "an array range of more than 100000 values";
        ix->kind = IX_RANGE;
        ix->first = first;
        ix->last = last;
        return NULL;
    }
    p = skip_blanks(p, end);
    if (p < end && (*p == 'j' || *p == 'J')) {
        p = skip_blanks(p + 1, end);
        ix->kind = IX_J;
        ix->mul = 1;
        if (p == end)
            return NULL;
        char op = *p;
        long n;
        p++;
        if ((op != '+' && op != '-' && op != '*') || !whole_number(&p, end, &n) || p != end)
            return INDEX_FORMS;
        if (labs(n) > MAX_INDEX)
            return "an array index is larger than a million";
        if (op == '*')
            ix->mul = n;
        else
            ix->add = op == '+' ? n : -n;
        return NULL;
    }
    long n;
    if (!whole_number(&p, end, &n) || p != end)
        return INDEX_FORMS;
    if (labs(n) > MAX_INDEX)
        return "an array index is larger than a million";
    ix->kind = IX_CONST;
    ix->add = n;
    return NULL;
}

/* The bracket of a name or number text: its index, and where it is.  False
 * when the text holds no bracket. */
typedef struct Bracketed {
    const char *open, *close;   /* '[' and ']' in the text */
    Index ix;
} Bracketed;

static bool find_bracket(const char *text, Bracketed *b)
{
    if (!text || !(b->open = strchr(text, '[')) || !(b->close = strchr(b->open, ']')))
        return false;
    /* the lexer accepted only valid brackets */
    return index_parse(b->open + 1, (size_t)(b->close - b->open - 1), &b->ix) == NULL;
}

/* ------------------------------------------------------------------ walking a statement */

typedef struct Walk {
    bool have_range;
    Index range;
    Loc range_loc;
    bool have_j;        /* a [j] index somewhere */
    Loc j_loc;
    bool failed;        /* reported */
    bool quiet;         /* a first look: reports nothing */
} Walk;

static Loc text_loc(const Node *n)
{
    return n->kind == N_NAME || n->kind == N_NUM ? n->loc : n->name_loc;
}

static void note_bracket(Walk *w, const Node *n, const char *text)
{
    Bracketed b;
    if (!find_bracket(text, &b))
        return;
    if (b.ix.kind == IX_RANGE) {
        if (w->have_range && (w->range.first != b.ix.first || w->range.last != b.ix.last)) {
            if (!w->failed && !w->quiet)
                error_at(text_loc(n), "a second array range on one line ([%ld..%ld] and [%ld..%ld])",
                         w->range.first, w->range.last, b.ix.first, b.ix.last);
            w->failed = true;
        }
        w->have_range = true;
        w->range = b.ix;
        w->range_loc = text_loc(n);
    } else if (b.ix.kind == IX_J && !w->have_j) {
        w->have_j = true;
        w->j_loc = text_loc(n);
    }
}

static void walk(Walk *w, const Node *n)
{
    for (; n; n = n->next) {
        note_bracket(w, n, n->name);
        if (n->kind == N_NUM)
            note_bracket(w, n, n->text);
        const Node *one[] = {n->lhs, n->rhs, n->cond};
        for (int i = 0; i < 3; i++)
            walk(w, one[i]);
        walk(w, n->args);
        walk(w, n->items);
        walk(w, n->body);
        walk(w, n->els);
    }
}

/* The brackets of one declaration (not of the ones after it). */
static Walk walk_decl_as(const Node *d, bool quiet)
{
    Walk w;
    memset(&w, 0, sizeof w);
    w.quiet = quiet;
    Node one = *d;
    one.next = NULL;
    walk(&w, &one);
    return w;
}

static Walk walk_decl(const Node *d)
{
    return walk_decl_as(d, false);
}

/* ------------------------------------------------------------------ copying with j */

typedef struct Subst {
    long j;
    bool has_j;         /* false: only whole-number brackets are replaced */
    bool failed;
    bool keep_j;        /* an array line kept as a loop: j-brackets and the range stay */
} Subst;

/* The text with its bracket replaced by the value; NULL after an error. */
static const char *replace(Subst *s, const Node *n, const char *text, bool is_number)
{
    Bracketed b;
    if (!find_bracket(text, &b))
        return text;
    if (s->keep_j && b.ix.kind != IX_CONST)
        return text;
    long v = b.ix.kind == IX_CONST ? b.ix.add : b.ix.kind == IX_RANGE ? s->j : b.ix.mul * s->j + b.ix.add;
    if (!is_number && v < 0) {
        if (!s->failed)
            error_at(text_loc(n), "'%s' with j = %ld names '%.*s%ld%s', which is no name", text, s->j,
                     (int)(b.open - text), text, v, b.close + 1);
        s->failed = true;
        return NULL;
    }
    if (is_number)
        return arena_printf("%ld", v);
    return arena_printf("%.*s%ld%s", (int)(b.open - text), text, v, b.close + 1);
}

static Node *copy_list(Subst *s, const Node *list);

static Node *copy_node(Subst *s, const Node *n)
{
    if (!n)
        return NULL;
    Node *c = arena_alloc(sizeof *c);
    *c = *n;
    c->next = NULL;
    if (n->name) {
        const char *r = replace(s, n, n->name, false);
        c->name = r ? r : n->name;
        if (r && r != n->name && n->kind == N_NAME)     /* for messages: where the name came from */
            c->text = s->has_j ? arena_printf("%s with j = %ld", n->name, s->j) : n->name;
    }
    if (n->kind == N_NUM && n->text && n->text[0] == '[') {
        const char *r = replace(s, n, n->text, true);
        if (r) {
            c->text = r;
            c->num = strtod(r, NULL);
        }
    }
    c->lhs = copy_node(s, n->lhs);
    c->rhs = copy_node(s, n->rhs);
    c->cond = copy_node(s, n->cond);
    c->args = copy_list(s, n->args);
    c->items = copy_list(s, n->items);
    c->body = copy_list(s, n->body);
    c->els = copy_list(s, n->els);
    return c;
}

static Node *copy_list(Subst *s, const Node *list)
{
    Node *head = NULL, *tail = NULL;
    for (; list; list = list->next) {
        Node *c = copy_node(s, list);
        if (tail)
            tail->next = c;
        else
            head = c;
        tail = c;
    }
    return head;
}

/* ------------------------------------------------------------------ the program */

typedef struct Out {
    Node *head, *tail;
} Out;

static void emit(Out *o, Node *d)
{
    d->next = NULL;
    if (o->tail)
        o->tail->next = d;
    else
        o->head = d;
    o->tail = d;
}

/* d once per j of [first..last] (downwards when last < first, as XPPAUT). */
static void repeat_decls(Out *o, const Node *first_decl, const Node *stop, long first, long last)
{
    long step = last >= first ? 1 : -1, lines = 0;
    for (const Node *d = first_decl; d != stop; d = d->next)
        lines++;
    statements_written += lines * (labs(last - first) + 1);
    if (statements_written > MAX_STATEMENTS) {
        error_at(first_decl->loc, "the arrays of this file write out more than %d statements", MAX_STATEMENTS);
        return;
    }
    for (long j = first;; j += step) {
        for (const Node *d = first_decl; d != stop; d = d->next) {
            Subst s = {j, true, false, false};
            Node *c = copy_node(&s, d);
            if (s.failed)
                return;
            emit(o, c);
        }
        if (j == last)
            break;
    }
}

/* ------------------------------------------------------------------ arrays kept as arrays */

static bool kept_kind(NodeKind k)
{
    return k == D_ODE || k == D_TEMP || k == D_AUX;
}

/* The kind class whose elements a block interleaves: states, temporaries, aux. */
static int kind_class(NodeKind k)
{
    return k == D_ODE ? 0 : k == D_TEMP ? 1 : 2;
}

/* d once, its j-brackets kept, its range in Node.array (the declared name's
 * bracket gives the index of its elements: [FIRST..LAST] is j, [j+1] j+1). */
static void keep_line(Out *o, const Node *d, long first, long last, int nlines, int pos, int block)
{
    Subst s = {0, false, false, true};
    Node one = *d;
    one.next = NULL;
    Node *c = copy_node(&s, &one);
    if (s.failed)
        return;
    ArrayLine *a = arena_alloc(sizeof *a);
    a->first = first;
    a->last = last;
    a->dir = last >= first ? 1 : -1;
    a->n = labs(last - first) + 1;
    a->nlines = nlines;
    a->pos = pos;
    a->block = block;
    a->mul = 1;
    Bracketed b;
    if (find_bracket(d->name, &b)) {
        a->prefix = arena_strndup(d->name, (size_t)(b.open - d->name));
        a->suffix = arena_strdup(b.close + 1);
        if (b.ix.kind == IX_J) {
            a->mul = b.ix.mul;
            a->add = b.ix.add;
        }
    } else {
        a->prefix = d->name;
        a->suffix = "";
    }
    c->array = a;
    emit(o, c);
}

/* The longest array line, or %-block, of equations, temporaries or aux. */
static long longest_array(const Program *prog, bool *special)
{
    long longest = 0;
    *special = false;
    for (const Node *d = prog->decls; d; d = d->next) {
        if (d->kind == D_SPECIAL)
            *special = true;
        if (d->kind == D_FOR) {
            long n = labs((long)d->rhs->num - (long)d->lhs->num) + 1;
            for (const Node *e = d->next; e && e->kind != D_FOR_END && e->kind != D_FOR; e = e->next)
                if (kept_kind(e->kind) && n > longest)
                    longest = n;
            continue;
        }
        if (!kept_kind(d->kind))
            continue;
        Walk w = walk_decl_as(d, true);
        if (w.have_range && labs(w.range.last - w.range.first) + 1 > longest)
            longest = labs(w.range.last - w.range.first) + 1;
    }
    return longest;
}

bool arrays_stay(const Program *prog)
{
    bool special;
    return longest_array(prog, &special) >= ARRAY_LOOP_MIN || special;
}

/* The states array lines declare (x[1..n]' = …, in %-blocks too): n each. */
long array_states(const Program *prog)
{
    long total = 0;
    for (const Node *d = prog->decls; d; d = d->next) {
        if (d->kind == D_FOR) {
            long n = labs((long)d->rhs->num - (long)d->lhs->num) + 1;
            for (const Node *e = d->next; e && e->kind != D_FOR_END && e->kind != D_FOR; e = e->next)
                if (e->kind == D_ODE) total += n;
            continue;
        }
        if (d->kind != D_ODE)
            continue;
        Walk w = walk_decl_as(d, true);
        if (w.have_range) total += labs(w.range.last - w.range.first) + 1;
    }
    return total;
}

/* `@ arrays=loop|written|auto` (check/options.c reports a bad value; the last one wins). */
ArrayMode array_mode(const Program *prog)
{
    ArrayMode mode = ARRAYS_AUTO;
    for (const Node *d = prog->decls; d; d = d->next)
        for (const Node *it = d->kind == D_OPTIONS ? d->items : NULL; it; it = it->next) {
            if (!it->name || strcasecmp(it->name, "arrays") || !it->rhs || it->rhs->kind != N_NAME)
                continue;
            if (!strcasecmp(it->rhs->name, "loop"))
                mode = ARRAYS_LOOP;
            else if (!strcasecmp(it->rhs->name, "written"))
                mode = ARRAYS_WRITTEN;
            else if (!strcasecmp(it->rhs->name, "auto"))
                mode = ARRAYS_AUTO;
        }
    return mode;
}

/* A declaration outside any %-block: repeated over its own range, or kept
 * with its whole-number brackets replaced. */
static void expand_decl(Out *o, const Node *d, bool keep)
{
    Walk w = walk_decl(d);
    if (w.failed)
        return;
    if (w.have_range && keep && kept_kind(d->kind)) {
        keep_line(o, d, w.range.first, w.range.last, 1, 0, 0);
        return;
    }
    if (w.have_range) {
        Node one = *d;
        one.next = NULL;
        Node *before = o->tail;
        repeat_decls(o, &one, NULL, w.range.first, w.range.last);
        if (d->kind == D_CALLDEF)   /* x[a..b](0)=…: XPPAUT's array initial values (form_ode.c, check_if_ic) */
            for (Node *c = before ? before->next : o->head; c; c = c->next) c->from_range = true;
        return;
    }
    if (w.have_j) {
        error_at(w.j_loc, "[j] is the index of an array line: it needs a range [FIRST..LAST] on its line "
                          "or a %%[FIRST..LAST] line above (and a %% line below)");
        return;
    }
    Subst s = {0, false, false, false};
    Node *c = copy_node(&s, d);
    if (!s.failed)
        emit(o, c);
}

/* The lines of a %-block that stay arrays (equations, temporaries and aux
 * whose name holds j), each once; the others are written out after them. */
static const Node *keep_block(Out *o, const Node *d, const Node *end, int block)
{
    int nlines[3] = {0, 0, 0}, pos[3] = {0, 0, 0};
    Node *rest = NULL, **tail = &rest;
    for (const Node *e = d->next; e != end; e = e->next) {
        Walk w = walk_decl_as(e, true);
        Bracketed b;
        if (kept_kind(e->kind) && find_bracket(e->name, &b) && b.ix.kind == IX_J && !w.failed)
            nlines[kind_class(e->kind)]++;
    }
    for (const Node *e = d->next; e != end; e = e->next) {
        Bracketed b;
        Walk w = walk_decl_as(e, true);
        if (kept_kind(e->kind) && find_bracket(e->name, &b) && b.ix.kind == IX_J && !w.failed) {
            int k = kind_class(e->kind);
            keep_line(o, e, (long)d->lhs->num, (long)d->rhs->num, nlines[k], pos[k]++, block);
        } else {
            Node *c = arena_alloc(sizeof *c);
            *c = *e;
            c->next = NULL;
            *tail = c;
            tail = &c->next;
        }
    }
    return rest;
}

Program *expand_arrays(const Program *prog, const Node *needs_derivatives, bool prefer_loops, bool *kept)
{
    statements_written = terms_written = 0;
    Program *out = arena_alloc(sizeof *out);
    *out = *prog;
    Out o = {NULL, NULL};
    bool special;
    long longest = longest_array(prog, &special);
    ArrayMode mode = array_mode(prog);
    bool keep = mode == ARRAYS_LOOP || (mode == ARRAYS_AUTO && (longest >= ARRAY_LOOP_MIN || special || prefer_loops));
    if (keep && needs_derivatives && (mode == ARRAYS_LOOP || special)) {
        error_at(needs_derivatives->loc,
                 "this needs the derivatives of the right-hand side, which odegen computes for equations written out "
                 "only, and %s", special ? "a model with a special keeps its arrays as loops"
                                         : "@ arrays=loop keeps the arrays as loops (write @ arrays=auto or written)");
    } else if (keep && mode == ARRAYS_AUTO && needs_derivatives) {
        note_at(needs_derivatives->loc,
                "the arrays (%ld elements) are written out, not kept as loops: this needs the derivatives of the "
                "right-hand side, which odegen computes for equations written out only",
                longest);
        keep = false;
    }
    *kept = keep;
    int blocks = 0;
    for (const Node *d = prog->decls; d; d = d->next) {
        if (d->kind == D_FOR_END) {   /* a %-comment outside a block */
            if (d->name)
                note_at(d->loc, "XPPAUT reads this line as the equation of a state named '%%%s' (a column more in "
                                "its output); odegen reads a line starting with %% outside an array block as a comment",
                        d->name);
            continue;
        }
        if (d->kind != D_FOR) {
            expand_decl(&o, d, keep);
            continue;
        }
        /* %[first..last] … %: the block's lines for one j, then for the next */
        const Node *end = d->next;
        bool ok = true;
        for (; end && end->kind != D_FOR_END; end = end->next) {
            if (end->kind == D_FOR) {
                error_at(end->loc, "a %%[…] block inside the block of line %d (a line starting with %% "
                                   "ends a block)", d->loc.line);
                ok = false;
            } else {
                Walk w = walk_decl(end);
                if (w.have_range) {
                    error_at(w.range_loc, "an array range inside the %%[%ld..%ld] block of line %d: "
                                          "write [j] there", (long)d->lhs->num, (long)d->rhs->num, d->loc.line);
                    ok = false;
                }
            }
        }
        if (!end) {
            error_at(d->loc, "'%%' expected (to close the %%[…] block of line %d): a line that starts with "
                             "%% ends it", d->loc.line);
            ok = false;
        }
        if (ok && keep) {
            const Node *rest = keep_block(&o, d, end, ++blocks);
            if (rest)
                repeat_decls(&o, rest, NULL, (long)d->lhs->num, (long)d->rhs->num);
        } else if (ok) {
            repeat_decls(&o, d->next, end, (long)d->lhs->num, (long)d->rhs->num);
        }
        if (!end)
            break;
        d = end;
    }
    out->decls = o.head;
    return out;
}

/* ------------------------------------------------------------------ sums */

/* A copy of n with the name i' replaced by the number i. */
static Node *with_index(const Node *n, long i)
{
    if (!n)
        return NULL;
    Node *c = arena_alloc(sizeof *c);
    *c = *n;
    c->next = NULL;
    if (n->kind == N_NAME && !strcmp(n->name, "i'")) {
        c->kind = N_NUM;
        c->num = (double)i;
        c->text = arena_printf("%ld", i);
        c->name = NULL;
        return c;
    }
    c->lhs = with_index(n->lhs, i);
    c->rhs = with_index(n->rhs, i);
    c->cond = with_index(n->cond, i);
    Node **tail = &c->args;
    for (const Node *a = n->args; a; a = a->next) {
        *tail = with_index(a, i);
        tail = &(*tail)->next;
    }
    return c;
}

static Node *add_terms(const Node *sum, long first, long last)
{
    long n = last - first + 1;
    if (n <= 256) {
        Node *acc = with_index(sum->lhs, first);
        for (long i = first + 1; i <= last; i++)
            acc = ast_binary(N_ADD, sum->loc, acc, with_index(sum->lhs, i));
        return acc;
    }
    long mid = first + n / 2;
    return ast_binary(N_ADD, sum->loc, add_terms(sum, first, mid - 1), add_terms(sum, mid, last));
}

Node *sum_expand(const Node *sum, long first, long last)
{
    if (last < first)
        return ast_num(sum->loc, "0");
    if (terms_written + (last - first + 1) > SUM_MAX_TERMS)
        return NULL;
    terms_written += last - first + 1;
    Node *e = add_terms(sum, first, last);
    e->paren = true;
    return e;
}

const Node *sum_inside(const Node *n)
{
    if (!n)
        return NULL;
    if (n->kind == N_SUM)
        return n;
    const Node *one[] = {n->lhs, n->rhs, n->cond};
    for (int i = 0; i < 3; i++) {
        const Node *f = sum_inside(one[i]);
        if (f)
            return f;
    }
    for (const Node *a = n->args; a; a = a->next) {
        const Node *f = sum_inside(a);
        if (f)
            return f;
    }
    return NULL;
}
