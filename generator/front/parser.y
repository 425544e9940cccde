/* parser.y — the .ode grammar (pure bison parser over lexer.l).
 *
 * The grammar stays thin: every action is one call that builds a node (the
 * constructors of ast.h, or the small mk_* helpers at the end of this file that
 * fill the fields of one declaration).  No semantic checks happen here; the
 * checker decides what a `f(u,v)=…` line is, whether a value is constant, etc.
 *
 * The file is line-oriented: the lexer emits EOL at the end of each logical
 * line (never after a `\` continuation).  Error recovery happens at the end of
 * each statement: `error EOL` at the top level and `error sep` inside `{ … }`
 * blocks, so that every error of a file is reported in one run.
 *
 * Syntax errors read `unexpected TOKEN[; expected A, B or C]`, or Lua's
 * `')' expected (to close '(' at column N)` for a bracket left open; see
 * yyreport_syntax_error below.
 */

%code requires {
#include <stdbool.h>
#include <stddef.h>

#include "front/ast.h"

#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif

/* A list under construction: O(1) append through the tail. */
typedef struct List { Node *head, *tail; } List;
}

%code provides {
/* Shared between the scanner (lexer.l) and the grammar: the state of one
 * parse.  Only lexer.l and parser.y see it (build/parser.h is internal). */
typedef struct Bracket { char c; Loc loc; } Bracket;

struct ParseState {
    const char *text;       /* the whole input, as given to parse_program */
    size_t len;
    size_t off;             /* byte offset of the next byte to scan */
    int line, col;          /* position of the next byte */
    size_t tok_off;         /* offset of the token being scanned */

    bool bos;               /* the next token starts a logical line */
    bool starter;           /* the token just scanned can only start a
                               top-level statement (keyword, x', dx/dt, …) */
    int skip_braces;        /* `{` seen while skipping an unsupported line */
    bool markov;            /* lines that start with `{` are rows of a markov table */
    int line_word;          /* the statement keyword that starts this line, or 0 */
    int table;              /* `table NAME`: 1 before the name, 2 when `%` follows it */
    bool table_file;        /* `table NAME FILE`: the file name comes next */

    Bracket *br;            /* open brackets, innermost last */
    int nbr, capbr;
    bool clear_parens;      /* drop the `(` entries before the next token */

    /* The last token handed to the parser (the lookahead of an error). */
    int tok_kind;
    int prev_kind;          /* the token handed out before it */
    size_t tok_text_off;
    int tok_text_len;
    Loc tok_loc;
    /* The token before the last one, and the one before that (a misspelt
     * keyword that starts a statement: `parr a=1`). */
    int prev2_kind;
    size_t prev_text_off;
    int prev_text_len;
    Loc prev_loc;
    bool line_has_tokens;   /* a token other than EOL since the last EOL */
    bool any_token;         /* a real token was handed out */
    Loc last;               /* the last real token's span */

    /* Tokens queued by the scanner's wrapper, handed out in this order. */
    bool q_eol1;            /* end the current line first */
    int q_close;            /* then this many '}' */
    bool q_eol2;            /* then an EOL */
    bool q_saved;           /* then the saved token */
    int saved_kind;
    ODE_YYSTYPE saved_val;
    Loc saved_loc;
    size_t saved_off;
    int saved_len;
    Loc inject_loc;         /* where the injected tokens point */
    bool eof;               /* then end of file, forever */
    bool done;              /* `done` seen: the rest is ignored */
    bool skipping;          /* skipping the body of an abandoned block */

    /* Where each `{` / `}` of the file is, to tell whether a block is closed
     * further down (built on first use). */
    size_t *brace_off;
    int *brace_sufmin;      /* min of the running balance from here on */
    int *brace_sum;         /* running balance after this brace */
    int nbraces;
    bool brace_index_built;

    Program *prog;
    Node *decl_tail;
};

int ode_yylex(ODE_YYSTYPE *yylval_param, Loc *yylloc_param, yyscan_t yyscanner);
/* Scanner services for the grammar (lexer.l). */
void lex_recover(yyscan_t scanner);
}

%code {
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "front/diag.h"
#include "front/parse.h"
#include "base/util.h"

#include "lexer.h"

/* Spans: a rule covers its first symbol's start to its last symbol's end;
 * an empty rule sits at the end of what precedes it. */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                        \
    do {                                                                   \
        if (N) {                                                           \
            (Cur) = loc_span(YYRHSLOC(Rhs, 1), YYRHSLOC(Rhs, N));          \
        } else {                                                           \
            (Cur).line = (Cur).end_line = YYRHSLOC(Rhs, 0).end_line;       \
            (Cur).col = (Cur).end_col = YYRHSLOC(Rhs, 0).end_col;          \
        }                                                                  \
    } while (0)

static void yyerror(Loc *loc, yyscan_t scanner, const char *msg);

static List list1(Node *n);
static List list_add(List l, Node *n);
static List list_none(void);
static void add_decl(yyscan_t scanner, Node *decl);
static Node *mk_items(NodeKind kind, Loc loc, List items);
static Node *mk_named(NodeKind kind, Loc loc, Loc name_loc, const char *name, Node *rhs);
static Node *mk_ddt(Loc loc, Node *name, Node *rhs);
static Node *mk_calldef(Loc loc, Node *call, Node *rhs);
static Node *mk_sign(Loc loc, const char *sign, const char *digits);
static Node *mk_global(Loc loc, Node *sign, Node *cond, List body);
static Node *mk_event(Loc loc, Loc name_loc, const char *name, Node *cond, List items, List body);
static Node *mk_on(Loc loc, Loc name_loc, const char *name, List body);
static Node *mk_tolerance(Loc loc, List names, List items);
static Node *mk_scan(Loc loc, Loc name_loc, const char *name, Node *call);
static Node *mk_lyapunov(Loc loc, Node *count, List items);
static Node *mk_record(Loc loc, List names);
static Node *mk_unsupported(Loc loc, const char *name);
static Node *mk_ignored(Loc loc, const char *name);
static Node *mk_item(Loc loc, Loc name_loc, const char *name, Loc eq_loc, Loc value_loc, Node *value);
static Node *mk_table_fn(Loc loc, Loc name_loc, const char *name, Node *npts, Node *xlo, Node *xhi, Node *formula);
static Node *mk_table_file(Loc loc, Loc name_loc, const char *name, const char *file);
static Node *mk_set(Loc loc, Loc name_loc, const char *name, List items);
static Node *mk_sum(Loc loc, Node *call, Node *body);
static Node *mk_neg_num(Loc loc, const char *digits);
static Node *mk_if(Loc loc, Node *cond, List then_, List else_);
static Node *mk_rates(Loc loc, List rates);
}

%define api.prefix {ode_yy}
%define api.pure full
%define api.location.type {Loc}
%define parse.error custom
%define parse.lac full
%define lr.default-reduction consistent
%locations
%param {yyscan_t scanner}
%expect 0

%union {
    const char *str;
    Node *node;
    List list;
}

/* Token order matters only for the order of "expected …" lists. */
%token END 0 "end of file"
%token '=' '\'' ':' ',' '(' ')' '{' '}' ';' '@' '!'
%token <str> NAME "name"
%token <str> NUM "number"
%token <str> WORD "word"
%token <node> DDT "'dx/dt'"
%token KW_PAR "'par'" KW_NUMBER "'number'" KW_INIT "'init'" KW_AUX "'aux'"
%token KW_GLOBAL "'global'" KW_EVENT "'event'" KW_ACC "'acc'" KW_ON "'on'"
%token KW_TOLERANCE "'tolerance'" KW_SCAN "'scan'" KW_REPEAT "'repeat'"
%token KW_RECORD "'record'" KW_SAVE "'save'" KW_DONE "'done'" KW_TABLE "'table'" KW_SET "'set'"
%token KW_LYAPUNOV "'lyapunov'" KW_PERIOD "'period'" KW_ATTRACTOR "'attractor'" KW_SPECIAL "'special'"
%token KW_WIENER "'wiener'" KW_MARKOV "'markov'" MARKOV_ROW "'{' (a markov table's row)"
%token KW_SOLVE "'solv'" KW_ALGEBRAIC "'0=' (an algebraic constraint)"
%token <str> KW_UNSUPPORTED "unsupported statement"
%token <str> KW_IGNORED "ignored statement"
%token KW_OPTFILE "'option'"
%token <node> FOR_BEGIN "'%[…]' line" FOR_END "'%' line"
%token OF "'of'" PERCENT "'%'"
%token IF "'if'" THEN "'then'" ELSE "'else'" NOT "'not'"
%token OR "'|'" AND "'&'" EQ "'=='" NE "'!='" '<' '>' LE "'<='" GE "'>='"
%token '+' '-' '*' '/' POW "'^'"
%token BADLINE "invalid token" /* the scanner has reported an error here */
%token EOL "end of line"

%left OR
%left AND
%left EQ NE
%left '<' '>' LE GE
%left '+' '-'
%left '*' '/'

%type <node> decl assign acc name option optval stmt if_stmt sign pitem tnum
%type <node> expr unary power powarg primary call
%type <list> assigns accs names options block block_opt body items last
%type <list> event_opts args arglist pitems pitems_tc set_items set_list rates

%%

program
    : %empty
    | program line
    ;

line
    : EOL
    | decl EOL                  { add_decl(scanner, $1); }
    | error EOL                 { yyerrok; lex_recover(scanner); }
    ;

decl
    : KW_PAR pitems_tc          { $$ = mk_items(D_PAR, @$, $2); }
    | KW_NUMBER pitems_tc       { $$ = mk_items(D_NUMBER, @$, $2); }
    | KW_INIT pitems_tc         { $$ = mk_items(D_INIT, @$, $2); }
    | '!' NAME '=' expr         { $$ = mk_named(D_DERIVED, @$, @2, $2, $4); }
    | NAME '\'' '=' expr        { $$ = mk_named(D_ODE, @$, @1, $1, $4); }
    | DDT '=' expr              { $$ = mk_ddt(@$, $1, $3); }
    | call '=' expr             { $$ = mk_calldef(@$, $1, $3); }
    | NAME '=' expr             { $$ = mk_named(D_TEMP, @$, @1, $1, $3); }
    | KW_AUX NAME '=' expr      { $$ = mk_named(D_AUX, @$, @2, $2, $4); }
    | KW_SPECIAL NAME '=' expr  { $$ = mk_named(D_SPECIAL, @$, @2, $2, $4); }
    | KW_GLOBAL sign '{' expr '}' block
                                { $$ = mk_global(@$, $2, $4, $6); }
    | KW_GLOBAL sign expr block { $$ = mk_global(@$, $2, $3, $4); }
    | KW_EVENT NAME ':' expr event_opts block_opt
                                { $$ = mk_event(@$, @2, $2, $4, $5, $6); }
    | KW_ACC accs               { $$ = mk_items(D_ACC, @$, $2); }
    | KW_ON NAME block          { $$ = mk_on(@$, @2, $2, $3); }
    | KW_TOLERANCE names ':' assigns
                                { $$ = mk_tolerance(@$, $2, $4); }
    | KW_SCAN NAME '=' call     { $$ = mk_scan(@$, @2, $2, $4); }
    | KW_REPEAT assigns         { $$ = mk_items(D_REPEAT, @$, $2); }
    | KW_RECORD names           { $$ = mk_record(@$, $2); }
    | KW_SAVE assigns           { $$ = mk_items(D_SAVE, @$, $2); }
    | KW_LYAPUNOV               { $$ = mk_lyapunov(@$, NULL, list_none()); }
    | KW_LYAPUNOV expr          { $$ = mk_lyapunov(@$, $2, list_none()); }
    | KW_LYAPUNOV expr ',' assigns
                                { $$ = mk_lyapunov(@$, $2, $4); }
    | KW_PERIOD                 { $$ = mk_items(D_PERIOD, @$, list_none()); }
    | KW_PERIOD pitems_tc       { $$ = mk_items(D_PERIOD, @$, $2); }
    | KW_ATTRACTOR              { $$ = mk_items(D_ATTRACTOR, @$, list_none()); }
    | KW_ATTRACTOR pitems_tc    { $$ = mk_items(D_ATTRACTOR, @$, $2); }
    | '@' options               { $$ = mk_items(D_OPTIONS, @$, $2); }
    | '@' options ','           { $$ = mk_items(D_OPTIONS, @$, $2); }
    | '@'                       { $$ = mk_items(D_OPTIONS, @$, list_none()); }
    | KW_UNSUPPORTED            { $$ = mk_unsupported(@$, $1); }
    | KW_IGNORED                { $$ = mk_ignored(@$, $1); }
    | KW_WIENER pitems_tc        { $$ = mk_items(D_WIENER, @$, $2); }
    | KW_SOLVE NAME '=' expr    { $$ = mk_named(D_SOLVE, @$, @2, $2, $4); }
    | KW_SOLVE NAME             { $$ = mk_named(D_SOLVE, @$, @2, $2, NULL); }
    | KW_ALGEBRAIC '=' expr     { $$ = mk_named(D_ALGEBRAIC, @$, @1, "0=", $3); }
    | KW_MARKOV NAME NUM        { $$ = mk_named(D_MARKOV, @$, @2, $2, ast_num(@3, $3)); }
    | rates                     { $$ = mk_rates(@$, $1); }
    | KW_TABLE NAME PERCENT tnum tnum tnum expr
                                { $$ = mk_table_fn(@$, @2, $2, $4, $5, $6, $7); }
    | KW_TABLE NAME WORD        { $$ = mk_table_file(@$, @2, $2, $3); }
    | KW_OPTFILE WORD           { $$ = mk_named(D_OPTFILE, @$, @2, $2, NULL); }
    | KW_SET NAME '{' set_items '}'
                                { $$ = mk_set(@$, @2, $2, $4); }
    | FOR_BEGIN
    | FOR_END
    | KW_DONE                   { $$ = ast_new(D_DONE, @$); }
    ;

/* par, number, init: `a=1, b=2` or `a=1 b=2`, a trailing comma, and a name
 * without a value (`par mu`: 0, as XPPAUT). */
pitems_tc
    : pitems
    | pitems ','
    ;

pitems
    : pitem                     { $$ = list1($1); }
    | pitems pitem              { $$ = list_add($1, $2); }
    | pitems ',' pitem          { $$ = list_add($1, $3); }
    ;

pitem
    : NAME '=' expr             { $$ = mk_item(@$, @1, $1, @2, @3, $3); }
    | NAME                      { $$ = ast_assign(@$, @1, $1, NULL); }
    ;

/* A row of a markov table: {rate} {rate} … (the lines after `markov NAME N`). */
rates
    : MARKOV_ROW expr '}'       { $$ = list1($2); }
    | rates '{' expr '}'        { $$ = list_add($1, $3); }
    ;

/* table f % NPTS XLO XHI: whole numbers as XPPAUT writes them */
tnum
    : NUM                       { $$ = ast_num(@$, $1); }
    | '-' NUM                   { $$ = mk_neg_num(@$, $2); }
    | '+' NUM                   { $$ = ast_num(@$, $2); }
    ;

/* set NAME {a=1, x=0.5} */
set_items
    : %empty                    { $$ = list_none(); }
    | set_list
    | set_list ','
    | set_list ';'
    ;

set_list
    : assign                    { $$ = list1($1); }
    | set_list assign           { $$ = list_add($1, $2); }
    | set_list ',' assign       { $$ = list_add($1, $3); }
    | set_list ';' assign       { $$ = list_add($1, $3); }
    ;

/* `a=1, b=2` or `a=1 b=2` (XPPAUT accepts both). */
assigns
    : assign                    { $$ = list1($1); }
    | assigns assign            { $$ = list_add($1, $2); }
    | assigns ',' assign        { $$ = list_add($1, $3); }
    ;

assign
    : NAME '=' expr             { $$ = ast_assign(@$, @1, $1, $3); }
    ;

/* acc m1 = y1, m2, cnt = 0 */
accs
    : acc                       { $$ = list1($1); }
    | accs acc                  { $$ = list_add($1, $2); }
    | accs ',' acc              { $$ = list_add($1, $3); }
    ;

acc
    : NAME                      { $$ = ast_assign(@$, @1, $1, NULL); }
    | assign
    ;

names
    : name                      { $$ = list1($1); }
    | names name                { $$ = list_add($1, $2); }
    | names ',' name            { $$ = list_add($1, $3); }
    ;

name
    : NAME                      { $$ = ast_name(@$, $1); }
    ;

/* global SIGN {EXPR} {…}: the sign is kept as written, 0 included. */
sign
    : NUM                       { $$ = mk_sign(@$, "", $1); }
    | '-' NUM                   { $$ = mk_sign(@$, "-", $2); }
    | '+' NUM                   { $$ = mk_sign(@$, "+", $2); }
    ;

/* event NAME: EXPR [, key=value]… [{ … }] */
event_opts
    : %empty                    { $$ = list_none(); }
    | event_opts ',' assign     { $$ = list_add($1, $3); }
    ;

block_opt
    : %empty                    { $$ = list_none(); }
    | block
    ;

/* @ name=value, name=value … (the lexer reads words here) */
options
    : option                    { $$ = list1($1); }
    | options option            { $$ = list_add($1, $2); }
    | options ',' option        { $$ = list_add($1, $3); }
    ;

option
    : NAME '=' optval           { $$ = mk_item(@$, @1, $1, @2, @3, $3); }
    | NAME                      { $$ = ast_assign(@$, @1, $1, NULL); }
    | WORD                      { $$ = ast_assign(@$, @1, $1, NULL); }   /* epss-1e-05: ignored, as XPPAUT does */
    ;

optval
    : NUM                       { $$ = ast_num(@$, $1); }
    | NAME                      { $$ = ast_name(@$, $1); }
    | WORD                      { $$ = ast_name(@$, $1); }
    ;

/* ---- blocks: statements separated by ';' and/or newlines ---- */

block
    : '{' body '}'              { $$ = $2; }
    ;

body
    : items last                { $$ = list_add($1, $2.head); }
    ;

items
    : %empty                    { $$ = list_none(); }
    | items sep                 { $$ = $1; }
    | items stmt sep            { $$ = list_add($1, $2); }
    | items error junk sep      { $$ = $1; yyerrok; }
    ;

last
    : %empty                    { $$ = list_none(); }
    | stmt                      { $$ = list1($1); }
    | error junk                { $$ = list_none(); }
    ;

/* What error recovery skips in a block: a `{…}` in it is skipped whole, so
 * that its `}` does not end the enclosing block. */
junk
    : %empty
    | junk block
    ;

sep
    : ';'
    | EOL
    ;

stmt
    : NAME '=' expr             { $$ = ast_assign(@$, @1, $1, $3); }
    | if_stmt
    ;

/* `else` stands on the line of the `}` that closes the then-part. */
if_stmt
    : IF '(' expr ')' block     { $$ = mk_if(@$, $3, $5, list_none()); }
    | IF '(' expr ')' block ELSE block
                                { $$ = mk_if(@$, $3, $5, $7); }
    | IF '(' expr ')' block ELSE if_stmt
                                { $$ = mk_if(@$, $3, $5, list1($7)); }
    ;

/* ---- expressions ---- */

expr
    : expr OR expr              { $$ = ast_binary(N_OR, @$, $1, $3); }
    | expr AND expr             { $$ = ast_binary(N_AND, @$, $1, $3); }
    | expr EQ expr              { $$ = ast_binary(N_EQ, @$, $1, $3); }
    | expr NE expr              { $$ = ast_binary(N_NE, @$, $1, $3); }
    | expr '<' expr             { $$ = ast_binary(N_LT, @$, $1, $3); }
    | expr '>' expr             { $$ = ast_binary(N_GT, @$, $1, $3); }
    | expr LE expr              { $$ = ast_binary(N_LE, @$, $1, $3); }
    | expr GE expr              { $$ = ast_binary(N_GE, @$, $1, $3); }
    | expr '+' expr             { $$ = ast_binary(N_ADD, @$, $1, $3); }
    | expr '-' expr             { $$ = ast_binary(N_SUB, @$, $1, $3); }
    | expr '*' expr             { $$ = ast_binary(N_MUL, @$, $1, $3); }
    | expr '/' expr             { $$ = ast_binary(N_DIV, @$, $1, $3); }
    | unary
    ;

/* Prefix operators bind looser than `^`: -2^2 is -4. */
unary
    : '-' unary                 { $$ = ast_unary(N_NEG, @$, $2); }
    | '+' unary                 { $$ = $2; }
    | NOT unary                 { $$ = ast_unary(N_NOT, @$, $2); }
    | '!' unary                 { $$ = ast_unary(N_NOT, @$, $2); }
    | power
    ;

/* `^` / `**` are left-associative as in XPPAUT (2^3^2 is 64); the right
 * operand may carry a sign (2^-1). */
power
    : power POW powarg          { $$ = ast_binary(N_POW, @$, $1, $3); }
    | primary
    ;

powarg
    : primary
    | '-' powarg                { $$ = ast_unary(N_NEG, @$, $2); }
    | '+' powarg                { $$ = $2; }
    ;

primary
    : NUM                       { $$ = ast_num(@$, $1); }
    | NAME                      { $$ = ast_name(@$, $1); }
    | call
    | '(' expr ')'              { $$ = ast_paren($2); }
    | IF '(' expr ')' THEN '(' expr ')' ELSE '(' expr ')'
                                { $$ = ast_if(@$, $3, $7, $11); }
    | call OF '(' expr ')'      { $$ = mk_sum(@$, $1, $4); }
    ;

call
    : NAME '(' args ')'         { $$ = ast_call(@$, @1, $1, $3.head); }
    ;

args
    : %empty                    { $$ = list_none(); }
    | arglist
    ;

arglist
    : expr                      { $$ = list1($1); }
    | arglist ',' expr          { $$ = list_add($1, $3); }
    ;

%%

/* ---- lists ---- */

static List list_none(void)
{
    List l = {NULL, NULL};
    return l;
}

static List list1(Node *n)
{
    List l = {n, n};
    return l;
}

/* Appends n (which may be NULL, or the head of a list) to l. */
static List list_add(List l, Node *n)
{
    if (!n)
        return l;
    if (!l.head)
        l.head = n;
    else
        l.tail->next = n;
    l.tail = n;
    while (l.tail->next)
        l.tail = l.tail->next;
    return l;
}

/* ---- declarations ---- */

static Node *mk_items(NodeKind kind, Loc loc, List items)
{
    Node *n = ast_new(kind, loc);
    n->items = items.head;
    return n;
}

static Node *mk_named(NodeKind kind, Loc loc, Loc name_loc, const char *name, Node *rhs)
{
    Node *n = ast_new(kind, loc);
    n->name = name;
    n->name_loc = name_loc;
    n->rhs = rhs;
    return n;
}

/* dx/dt = rhs: the lexer hands over the name `x` as an N_NAME with its span. */
static Node *mk_ddt(Loc loc, Node *name, Node *rhs)
{
    return mk_named(D_ODE, loc, name->loc, name->name, rhs);
}

static Node *mk_calldef(Loc loc, Node *call, Node *rhs)
{
    Node *n = mk_named(D_CALLDEF, loc, call->name_loc, call->name, rhs);
    n->args = call->args;
    return n;
}

/* A row of a markov table: its rates as a list of expressions. */
static Node *mk_rates(Loc loc, List rates)
{
    Node *n = ast_new(D_MARKOV_ROW, loc);
    n->args = rates.head;
    return n;
}

static Node *mk_sign(Loc loc, const char *sign, const char *digits)
{
    return ast_num(loc, arena_printf("%s%s", sign, digits));
}

static Node *mk_global(Loc loc, Node *sign, Node *cond, List body)
{
    Node *n = ast_new(D_GLOBAL, loc);
    n->num = sign->num;
    n->text = sign->text;
    n->cond = cond;
    n->body = body.head;
    return n;
}

static Node *mk_event(Loc loc, Loc name_loc, const char *name, Node *cond, List items, List body)
{
    Node *n = mk_named(D_EVENT, loc, name_loc, name, NULL);
    n->cond = cond;
    n->items = items.head;
    n->body = body.head;
    return n;
}

static Node *mk_on(Loc loc, Loc name_loc, const char *name, List body)
{
    Node *n = mk_named(D_ON, loc, name_loc, name, NULL);
    n->body = body.head;
    return n;
}

static Node *mk_tolerance(Loc loc, List names, List items)
{
    Node *n = ast_new(D_TOLERANCE, loc);
    n->args = names.head;
    n->items = items.head;
    return n;
}

static Node *mk_scan(Loc loc, Loc name_loc, const char *name, Node *call)
{
    return mk_named(D_SCAN, loc, name_loc, name, call);
}

/* lyapunov N [, every=T]: rhs N (NULL when missing), items the options */
static Node *mk_lyapunov(Loc loc, Node *count, List items)
{
    Node *n = ast_new(D_LYAPUNOV, loc);
    n->rhs = count;
    n->items = items.head;
    return n;
}

static Node *mk_record(Loc loc, List names)
{
    Node *n = ast_new(D_RECORD, loc);
    n->args = names.head;
    return n;
}

static Node *mk_unsupported(Loc loc, const char *name)
{
    return mk_named(D_UNSUPPORTED, loc, loc, name, NULL);
}

static Node *mk_ignored(Loc loc, const char *name)
{
    return mk_named(D_IGNORED, loc, loc, name, NULL);
}

/* NAME=value of par, number, init and @ lines; `spaced` when blanks stand
 * around the '=' (XPPAUT 6.11 reads those differently: see check/values.c). */
static Node *mk_item(Loc loc, Loc name_loc, const char *name, Loc eq_loc, Loc value_loc, Node *value)
{
    Node *n = ast_assign(loc, name_loc, name, value);
    n->spaced = name_loc.end_line != value_loc.line || name_loc.end_col + 1 != eq_loc.col ||
                eq_loc.end_col + 1 != value_loc.col;
    return n;
}

static Node *mk_table_fn(Loc loc, Loc name_loc, const char *name, Node *npts, Node *xlo, Node *xhi, Node *formula)
{
    Node *n = mk_named(D_TABLE, loc, name_loc, name, formula);
    npts->next = xlo;
    xlo->next = xhi;
    n->items = npts;
    return n;
}

static Node *mk_table_file(Loc loc, Loc name_loc, const char *name, const char *file)
{
    Node *n = mk_named(D_TABLE, loc, name_loc, name, NULL);
    n->text = file;
    return n;
}

static Node *mk_set(Loc loc, Loc name_loc, const char *name, List items)
{
    Node *n = mk_named(D_SET, loc, name_loc, name, NULL);
    n->items = items.head;
    return n;
}

/* sum(first, last)of(body): the call's arguments are the bounds. */
static Node *mk_sum(Loc loc, Node *call, Node *body)
{
    Node *n = ast_new(N_SUM, loc);
    n->name = call->name;
    n->name_loc = call->name_loc;
    n->args = call->args;
    n->lhs = body;
    return n;
}

static Node *mk_neg_num(Loc loc, const char *digits)
{
    return ast_num(loc, arena_printf("-%s", digits));
}

static Node *mk_if(Loc loc, Node *cond, List then_, List else_)
{
    Node *n = ast_new(S_IF, loc);
    n->cond = cond;
    n->body = then_.head;
    n->els = else_.head;
    return n;
}

/* ---- the tree's depth ----
 * Later passes walk the tree recursively; a statement nested deeper than this
 * (e.g. a sum of thousands of terms, which is left-deep) is refused here, so
 * that no pass can run out of stack.  Computed without recursion. */
enum { MAX_DEPTH = 5000 };

static int tree_depth(Node *root)
{
    struct Item { Node *n; int depth; } *stack = NULL;
    size_t len = 0, cap = 0;
    int deepest = 0;
#define PUSH(node, d)                                                       \
    do {                                                                    \
        if (len == cap) {                                                   \
            cap = cap ? 2 * cap : 64;                                       \
            struct Item *bigger = realloc(stack, cap * sizeof *stack);      \
            if (!bigger) { free(stack); return MAX_DEPTH + 1; }             \
            stack = bigger;                                                 \
        }                                                                   \
        stack[len].n = (node);                                              \
        stack[len++].depth = (d);                                           \
    } while (0)
    PUSH(root, 1);
    while (len > 0) {
        struct Item it = stack[--len];
        if (it.depth > deepest)
            deepest = it.depth;
        if (deepest > MAX_DEPTH)
            break;
        Node *one[] = {it.n->lhs, it.n->rhs, it.n->cond};
        for (size_t i = 0; i < sizeof one / sizeof one[0]; i++)
            if (one[i])
                PUSH(one[i], it.depth + 1);
        Node *lists[] = {it.n->args, it.n->items, it.n->body, it.n->els};
        for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
            for (Node *m = lists[i]; m; m = m->next)
                PUSH(m, it.depth + 1);
    }
#undef PUSH
    free(stack);
    return deepest;
}

static void add_decl(yyscan_t scanner, Node *decl)
{
    struct ParseState *ps = ode_yyget_extra(scanner);
    if (tree_depth(decl) > MAX_DEPTH) {
        error_at(decl->loc, "statement too complex: nested more than %d levels deep", MAX_DEPTH);
        return;
    }
    if (ps->decl_tail)
        ps->decl_tail->next = decl;
    else
        ps->prog->decls = decl;
    ps->decl_tail = decl;
}

/* ---- syntax error messages ---- */

static void yyerror(Loc *loc, yyscan_t scanner, const char *msg)
{
    (void)scanner;
    if (!strcmp(msg, "memory exhausted"))
        error_at(*loc, "expression or block nested too deeply");
    else
        error_at(*loc, "%s", msg);
}

/* Character tokens are told apart by their name ("'('"): their symbol
 * numbers depend on the order of declarations. */
static bool sym_is(yysymbol_kind_t k, const char *name)
{
    return !strcmp(yysymbol_name(k), name);
}

/* How the unexpected token reads: name 'foo', number 1.5, '=', end of line. */
static char *describe_token(struct ParseState *ps, yysymbol_kind_t tok)
{
    const char *text = ps->text + ps->tok_text_off;
    int len = ps->tok_text_len;
    const char *dots = "";
    if (len > 40) {
        len = 40;
        dots = "...";
    }
    switch (tok) {
    case YYSYMBOL_NAME: return arena_printf("name '%.*s%s'", len, text, dots);
    case YYSYMBOL_NUM:  return arena_printf("number %.*s%s", len, text, dots);
    case YYSYMBOL_WORD: return arena_printf("word '%.*s%s'", len, text, dots);
    case YYSYMBOL_YYEOF:
    case YYSYMBOL_EOL:  return arena_strdup(yysymbol_name(tok));
    default:
        if (sym_is(tok, "'\\''"))
            return arena_strdup("\"'\"");
        if (len > 0)
            return arena_printf("'%.*s%s'", len, text, dots);
        return arena_strdup(yysymbol_name(tok));
    }
}

static bool starts_expression(yysymbol_kind_t k)
{
    return k == YYSYMBOL_NAME || k == YYSYMBOL_NUM || k == YYSYMBOL_IF || k == YYSYMBOL_NOT ||
           sym_is(k, "'('") || sym_is(k, "'!'") || sym_is(k, "'+'") || sym_is(k, "'-'");
}

static bool is_binary_operator(yysymbol_kind_t k)
{
    static const char *const ops[] = {"'+'", "'-'", "'*'", "'/'", "'<'", "'>'"};
    if (k == YYSYMBOL_OR || k == YYSYMBOL_AND || k == YYSYMBOL_EQ || k == YYSYMBOL_NE ||
        k == YYSYMBOL_LE || k == YYSYMBOL_GE || k == YYSYMBOL_POW)
        return true;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (sym_is(k, ops[i]))
            return true;
    return false;
}

/* "expected X", "expected X or Y", "expected X, Y or Z" (at most 4 items);
 * the tokens that start an expression read "expression", binary operators
 * "operator".  NULL when the list would be longer. */
static const char *expected_list(const yypcontext_t *ctx)
{
    yysymbol_kind_t exp[YYNTOKENS];
    int n = yypcontext_expected_tokens(ctx, exp, YYNTOKENS);
    if (n <= 0)
        return NULL;
    bool has_num = false, has_name = false, has_paren = false, has_mul = false;
    for (int i = 0; i < n; i++) {
        has_num |= exp[i] == YYSYMBOL_NUM;
        has_name |= exp[i] == YYSYMBOL_NAME;
        has_paren |= sym_is(exp[i], "'('");
        has_mul |= sym_is(exp[i], "'*'");
    }
    has_num = has_num && has_name && has_paren;     /* an expression may start here */
    const char *items[5];
    int count = 0;
    bool said_expr = false, said_op = false;
    for (int i = 0; i < n; i++) {
        const char *item;
        if (has_num && starts_expression(exp[i]) && !(has_mul && is_binary_operator(exp[i]))) {
            if (said_expr)
                continue;
            said_expr = true;
            item = "expression";
        } else if (has_mul && is_binary_operator(exp[i])) {
            if (said_op)
                continue;
            said_op = true;
            item = "operator";
        } else if (exp[i] == YYSYMBOL_BADLINE) {
            continue;
        } else if (sym_is(exp[i], "'\\''")) {
            item = "\"'\"";
        } else {
            item = yysymbol_name(exp[i]);
        }
        if (count == 4)
            return NULL;
        items[count++] = item;
    }
    if (count == 0)
        return NULL;
    char *s = arena_printf("%s", items[0]);
    for (int i = 1; i < count; i++)
        s = arena_printf("%s%s%s", s, i == count - 1 ? " or " : ", ", items[i]);
    return s;
}

static bool expects(const yypcontext_t *ctx, const char *want)
{
    yysymbol_kind_t exp[YYNTOKENS];
    int n = yypcontext_expected_tokens(ctx, exp, YYNTOKENS);
    for (int i = 0; i < n; i++)
        if (sym_is(exp[i], want))
            return true;
    return false;
}

/* A statement that starts with a misspelt keyword (`parr a=1`, `iff (x>0)
 * {…}`) fails at the word after it: the keyword meant, or NULL when the word
 * that starts the statement is not close to one. */
static const char *misspelt_keyword(const struct ParseState *ps)
{
    if (ps->prev_kind != NAME || ps->prev_text_len < 2 || ps->prev_text_len > 40)
        return NULL;
    if (!(ps->prev2_kind == EOL || ps->prev2_kind == END || ps->prev2_kind == ';' ||
          ps->prev2_kind == '{'))
        return NULL;
    bool block = false;
    for (int i = 0; i < ps->nbr; i++)
        block |= ps->br[i].c == '{';
    return statement_near(arena_strndup(ps->text + ps->prev_text_off, (size_t)ps->prev_text_len), block);
}

const char *statement_near(const char *word, bool block)
{
    static const char *const top[] = {"par", "param", "number", "init", "aux", "global", "event",
                                      "acc", "on", "tolerance", "scan", "repeat", "record", "save", "done",
                                      "lyapunov", "period", "attractor",
                                      "table", "set", NULL};
    static const char *const in_block[] = {"if", NULL};
    size_t len = strlen(word);
    if (len < 2 || len > 40)
        return NULL;
    int limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
    const char *best = NULL;
    int best_d = limit + 1;
    for (const char *const *k = block ? in_block : top; *k; k++) {
        int d = name_distance(word, *k);
        /* on a tie, the keyword with the same first letter (`don`: done, not on) */
        if (d > 0 && (d < best_d || (d == best_d && best && (*k)[0] == tolower((unsigned char)word[0]) &&
                                     best[0] != tolower((unsigned char)word[0])))) {
            best_d = d;
            best = *k;
        }
    }
    return best;
}

static int yyreport_syntax_error(const yypcontext_t *ctx, yyscan_t scanner)
{
    struct ParseState *ps = ode_yyget_extra(scanner);
    yysymbol_kind_t tok = yypcontext_token(ctx);
    Loc loc = *yypcontext_location(ctx);
    if (tok == YYSYMBOL_BADLINE)
        return 0;   /* the scanner has said what is wrong here */

    const char *keyword = misspelt_keyword(ps);
    if (keyword) {
        error_at(ps->prev_loc, "unknown statement '%.*s'; did you mean '%s'?", ps->prev_text_len,
                 ps->text + ps->prev_text_off, keyword);
        return 0;
    }

    /* A bracket still open when the line ends: say so, Lua-style. */
    if ((tok == YYSYMBOL_EOL || tok == YYSYMBOL_YYEOF) && ps->nbr > 0) {
        Bracket *b = &ps->br[ps->nbr - 1];
        char close = b->c == '(' ? ')' : '}';
        if (expects(ctx, b->c == '(' ? "')'" : "'}'")) {
            if (b->loc.line == loc.line)
                error_at(loc, "'%c' expected (to close '%c' at column %d)", close, b->c, b->loc.col);
            else
                error_at(loc, "'%c' expected (to close '%c' at line %d)", close, b->c, b->loc.line);
            return 0;
        }
    }
    if (tok == YYSYMBOL_ELSE && ps->prev_kind == EOL) {
        error_at(loc, "unexpected 'else' at the start of a line; "
                      "it goes on the line of the '}' that ends the if-part");
        return 0;
    }
    const char *expected = expected_list(ctx);
    if (expected)
        error_at(loc, "unexpected %s; expected %s", describe_token(ps, tok), expected);
    else
        error_at(loc, "unexpected %s", describe_token(ps, tok));
    return 0;
}
