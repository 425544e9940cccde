/* ast.c — node constructors and the tree dump (--dump-ast). */
#include "front/ast.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/arena.h"

Node *ast_new(NodeKind kind, Loc loc)
{
    Node *n = arena_alloc(sizeof *n);
    n->kind = kind;
    n->loc = loc;
    return n;
}

Node *ast_num(Loc loc, const char *text)
{
    Node *n = ast_new(N_NUM, loc);
    n->text = arena_strdup(text);
    n->num = strtod(text, NULL);
    return n;
}

Node *ast_name(Loc loc, const char *name)
{
    Node *n = ast_new(N_NAME, loc);
    n->name = arena_strdup(name);
    n->name_loc = loc;
    return n;
}

Node *ast_unary(NodeKind kind, Loc loc, Node *operand)
{
    Node *n = ast_new(kind, loc);
    n->lhs = operand;
    return n;
}

Node *ast_binary(NodeKind kind, Loc loc, Node *lhs, Node *rhs)
{
    Node *n = ast_new(kind, loc);
    n->lhs = lhs;
    n->rhs = rhs;
    return n;
}

Node *ast_if(Loc loc, Node *cond, Node *then_, Node *else_)
{
    Node *n = ast_new(N_IF, loc);
    n->cond = cond;
    n->lhs = then_;
    n->rhs = else_;
    return n;
}

Node *ast_call(Loc loc, Loc name_loc, const char *name, Node *args)
{
    Node *n = ast_new(N_CALL, loc);
    n->name = arena_strdup(name);
    n->name_loc = name_loc;
    n->args = args;
    return n;
}

Node *ast_assign(Loc loc, Loc name_loc, const char *name, Node *rhs)
{
    Node *n = ast_new(S_ASSIGN, loc);
    n->name = arena_strdup(name);
    n->name_loc = name_loc;
    n->rhs = rhs;
    return n;
}

/* Walks to the tail: O(length).  The parser builds its lists through a tail
 * pointer instead. */
static Node *copy_list(const Node *list)
{
    Node *head = NULL;
    for (; list; list = list->next) head = ast_append(head, ast_copy(list));
    return head;
}

Node *ast_copy(const Node *n)
{
    if (!n) return NULL;
    Node *c = arena_alloc(sizeof *c);
    *c = *n;
    c->next = NULL;
    c->lhs = ast_copy(n->lhs);
    c->rhs = ast_copy(n->rhs);
    c->cond = ast_copy(n->cond);
    c->more = ast_copy(n->more);
    c->args = copy_list(n->args);
    c->items = copy_list(n->items);
    c->body = copy_list(n->body);
    c->els = copy_list(n->els);
    return c;
}

Node *ast_append(Node *list, Node *item)
{
    if (!list)
        return item;
    Node *tail = list;
    while (tail->next)
        tail = tail->next;
    tail->next = item;
    return list;
}

Loc loc_span(Loc first, Loc last)
{
    Loc l = {first.line, first.col, last.end_line, last.end_col};
    return l;
}

const char *node_kind_name(NodeKind kind)
{
    static const char *const names[] = {
        [N_NUM] = "N_NUM", [N_NAME] = "N_NAME", [N_NEG] = "N_NEG", [N_NOT] = "N_NOT",
        [N_ADD] = "N_ADD", [N_SUB] = "N_SUB", [N_MUL] = "N_MUL", [N_DIV] = "N_DIV",
        [N_POW] = "N_POW", [N_LT] = "N_LT", [N_GT] = "N_GT", [N_LE] = "N_LE",
        [N_GE] = "N_GE", [N_EQ] = "N_EQ", [N_NE] = "N_NE", [N_AND] = "N_AND",
        [N_OR] = "N_OR", [N_IF] = "N_IF", [N_CALL] = "N_CALL", [N_SUM] = "N_SUM", [N_ELEM] = "N_ELEM", [N_POS] = "N_POS", [N_SUMIX] = "N_SUMIX",
        [S_ASSIGN] = "S_ASSIGN", [S_IF] = "S_IF",
        [D_PAR] = "D_PAR", [D_NUMBER] = "D_NUMBER", [D_INIT] = "D_INIT",
        [D_DERIVED] = "D_DERIVED", [D_ODE] = "D_ODE", [D_CALLDEF] = "D_CALLDEF",
        [D_TEMP] = "D_TEMP", [D_AUX] = "D_AUX", [D_GLOBAL] = "D_GLOBAL",
        [D_EVENT] = "D_EVENT", [D_ACC] = "D_ACC", [D_ON] = "D_ON",
        [D_TOLERANCE] = "D_TOLERANCE", [D_SCAN] = "D_SCAN", [D_REPEAT] = "D_REPEAT",
        [D_RECORD] = "D_RECORD", [D_SAVE] = "D_SAVE", [D_OPTIONS] = "D_OPTIONS",
        [D_LYAPUNOV] = "D_LYAPUNOV", [D_PERIOD] = "D_PERIOD", [D_ATTRACTOR] = "D_ATTRACTOR",
        [D_WIENER] = "D_WIENER", [D_MARKOV] = "D_MARKOV", [D_MARKOV_ROW] = "D_MARKOV_ROW",
        [D_UNSUPPORTED] = "D_UNSUPPORTED", [D_IGNORED] = "D_IGNORED", [D_OPTFILE] = "D_OPTFILE", [D_TABLE] = "D_TABLE",
        [D_SET] = "D_SET", [D_FOR] = "D_FOR", [D_FOR_END] = "D_FOR_END", [D_SPECIAL] = "D_SPECIAL", [D_SOLVE] = "D_SOLVE",
        [D_ALGEBRAIC] = "D_ALGEBRAIC", [D_DONE] = "D_DONE",
    };
    if ((unsigned)kind < sizeof names / sizeof names[0] && names[kind])
        return names[kind];
    return "?";
}

/* ---- dump ----
 * One node a line, children indented by two spaces under a label:
 *
 *   D_ODE 3:1-14 name=y2@3:1-2
 *     rhs: N_SUB 3:5-14
 *       lhs: N_NAME 3:5-6 name=y1
 *
 * Spans read L:C (one character), L:C-C2 (one line) or L:C-L2:C2.  A list
 * prints as a label line (`items:`) with its elements below it. */

enum { DUMP_MAX_DEPTH = 10000 };

static void print_span(FILE *f, Loc l)
{
    if (l.end_line == l.line && l.end_col == l.col)
        fprintf(f, "%d:%d", l.line, l.col);
    else if (l.end_line == l.line)
        fprintf(f, "%d:%d-%d", l.line, l.col, l.end_col);
    else
        fprintf(f, "%d:%d-%d:%d", l.line, l.col, l.end_line, l.end_col);
}

static int same_loc(Loc a, Loc b)
{
    return a.line == b.line && a.col == b.col && a.end_line == b.end_line &&
           a.end_col == b.end_col;
}

static void dump_node(FILE *f, const Node *n, int depth, const char *label);

static void dump_list(FILE *f, const Node *list, int depth, const char *label)
{
    if (!list)
        return;
    fprintf(f, "%*s%s:\n", 2 * depth, "", label);
    for (const Node *m = list; m; m = m->next)
        dump_node(f, m, depth + 1, NULL);
}

static void dump_node(FILE *f, const Node *n, int depth, const char *label)
{
    if (!n)
        return;
    int indent = depth < 60 ? 2 * depth : 120;   /* keep very deep trees readable */
    fprintf(f, "%*s", indent, "");
    if (label)
        fprintf(f, "%s: ", label);
    if (depth > DUMP_MAX_DEPTH) {
        fputs("...\n", f);
        return;
    }
    fprintf(f, "%s ", node_kind_name(n->kind));
    print_span(f, n->loc);
    if (n->name) {
        fprintf(f, " name=%s", n->name);
        if (!same_loc(n->name_loc, n->loc)) {
            fputc('@', f);
            print_span(f, n->name_loc);
        }
    }
    if (n->text)
        fprintf(f, " text=%s", n->text);
    if (n->spaced)
        fputs(" spaced", f);
    if (n->kind == D_GLOBAL)
        fprintf(f, " num=%g", n->num);
    fputc('\n', f);

    int d = depth + 1;
    dump_node(f, n->cond, d, "cond");
    dump_list(f, n->args, d, "args");
    dump_list(f, n->items, d, "items");
    if (n->kind == N_IF) {
        dump_node(f, n->lhs, d, "then");
        dump_node(f, n->rhs, d, "else");
    } else {
        dump_node(f, n->lhs, d, "lhs");
        dump_node(f, n->rhs, d, "rhs");
    }
    dump_list(f, n->body, d, "body");
    dump_list(f, n->els, d, "else");
}

void ast_dump(const Program *prog, void *file)
{
    FILE *f = file;
    fprintf(f, "program %s\n", prog->path ? prog->path : "?");
    for (const Node *n = prog->decls; n; n = n->next)
        dump_node(f, n, 1, NULL);
}

Node *ast_paren(Node *inner)
{
    if (inner) inner->paren = true;
    return inner;
}
