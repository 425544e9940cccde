/* unit_deriv.c — what the differentiator does with a construct it does not
 * know: an explicit failure at the construct's place, never a derivative of 0.
 *
 * The language has no such construct today (every built-in has a rule), so
 * the checked model is altered the way a new front-end feature would alter it
 * (a table lookup: a call whose symbol is no function; a syntax-tree kind the
 * differentiator has never seen; a built-in it has no rule for).  Linked with
 * the translator's objects (build/asan/translator.a) by tests/deriv/test_deriv.py.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "front/diag.h"
#include "emit/emit.h"
#include "deriv/jacobian.h"
#include "check/model.h"
#include "front/parse.h"

static int failures;

#define EXPECT(cond, ...)                                                          \
    do {                                                                           \
        if (!(cond)) {                                                             \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                            \
            printf(__VA_ARGS__);                                                   \
            printf("\n");                                                          \
            failures++;                                                            \
        }                                                                          \
    } while (0)

static Model *load(const char *text)
{
    diag_set_source("unit.ode", text, strlen(text));
    Program *p = parse_program("unit.ode", text, strlen(text));
    Model *m = check_program(p, 0);
    if (!m) {
        printf("FAIL: the test model does not check\n");
        exit(1);
    }
    return m;
}

static const Jacobian *differentiate(Model *m)
{
    TimeTrig trig = {0};
    find_time_trig(m, &trig);
    return jacobian_build(m, &trig);
}

/* The generated source of m (the .cu text). */
static char *generate(Model *m)
{
    GeneratedFile files[GENERATED_FILES];
    emit_model(m, files);
    char *cu = arena_strdup(files[0].text.data);
    for (int i = 0; i < GENERATED_FILES; i++) buf_free(&files[i].text);
    return cu;
}

/* What jacobian_require reports. */
static char *require_message(const Jacobian *J, JacGroup g, bool *ok)
{
    FILE *f = tmpfile();
    diag_set_stream(f);
    *ok = jacobian_require(J, g, "the test");
    diag_set_stream(stderr);
    long n = ftell(f);
    char *text = arena_alloc((size_t)n + 1);
    rewind(f);
    if (fread(text, 1, (size_t)n, f) != (size_t)n) text[0] = 0;
    fclose(f);
    return text;
}

static void test_call_of_a_non_function(void)
{
    /* f(x) in y' becomes a call of a symbol that is no function (as a table's would be) */
    Model *m = load("par a=1\nf(u)=u*u\nx'=a*f(x)\ny'=x\n");
    Node *call = m->states[0]->expr->rhs;
    EXPECT(call->kind == N_CALL && call->sym, "the test model changed");
    Symbol *table = arena_alloc(sizeof *table);
    *table = *call->sym;
    table->kind = (SymKind)97;   /* a kind the differentiator has never seen */
    call->sym = table;
    const Jacobian *J = differentiate(m);
    EXPECT(J->fail[JAC_RHS].failed, "a call of an unknown kind was differentiated");
    EXPECT(J->fail[JAC_RHS].loc.line == 3 && J->fail[JAC_RHS].loc.col == 6, "place %d:%d", J->fail[JAC_RHS].loc.line,
           J->fail[JAC_RHS].loc.col);
    EXPECT(!J->fail[JAC_EVENTS].failed && !J->fail[JAC_RESETS].failed, "the other groups failed too");
    bool ok;
    char *msg = require_message(J, JAC_RHS, &ok);
    EXPECT(!ok && strstr(msg, "unit.ode:3:6: error: the test needs the derivative of the right-hand side: 'f' "
                              "cannot be differentiated"),
           "message: %s", msg);
    char *cu = generate(m);
    EXPECT(strstr(cu, "#define ODE_HAS_JACOBIAN 0   /* unit.ode:3: 'f' cannot be differentiated"), "no notice in the code");
    /* the definition (templates mention the name under #if ODE_HAS_JACOBIAN) */
    EXPECT(!strstr(cu, "void ode_model_jac("), "a Jacobian was emitted");
    EXPECT(strstr(cu, "#define ODE_HAS_EVENT_GRAD 1") && strstr(cu, "#define ODE_HAS_RESET_JAC 1"),
           "the other groups are missing");
}

static void test_unknown_node_kind(void)
{
    /* an expression node of a kind the differentiator does not handle */
    Model *m = load("par a=1\nx'=a*x\nevent e: x - 1 { x = 0 }\n");
    Node *odd = ast_new(D_TOLERANCE, m->states[0]->expr->rhs->loc);
    m->states[0]->expr->rhs = odd;
    const Jacobian *J = differentiate(m);
    EXPECT(J->fail[JAC_RHS].failed && J->fail[JAC_RHS].loc.line == 2, "an unknown node kind was differentiated");
    EXPECT(J->fail[JAC_RHS].msg && strstr(J->fail[JAC_RHS].msg, "cannot be differentiated"), "message: %s",
           J->fail[JAC_RHS].msg);
}

static void test_unknown_builtin(void)
{
    /* a built-in the differentiator has no rule for (a new one in builtins.c) */
    Model *m = load("x'=-x\nevent e: sin(t) { x = exp(x) }\n");
    m->events[0].expr->name = "bessel";
    Node *reset = m->events[0].body->rhs;
    const Jacobian *J = differentiate(m);
    EXPECT(J->fail[JAC_EVENTS].failed && J->fail[JAC_EVENTS].loc.line == 2 && J->fail[JAC_EVENTS].loc.col == 10,
           "an unknown built-in in an event function was differentiated");
    EXPECT(!J->fail[JAC_RHS].failed && !J->fail[JAC_RESETS].failed, "the other groups failed too");
    reset->name = "bessel";
    J = differentiate(m);
    EXPECT(J->fail[JAC_RESETS].failed && J->fail[JAC_RESETS].loc.line == 2, "an unknown built-in in a block");
}

static void test_groups_apart_in_the_code(void)
{
    /* an event function that cannot be differentiated: the Jacobian of f stays */
    Model *m = load("f(u)=u-1\nx'=-x\nevent e: f(x) { x = 2*x }\n");
    Node *call = m->events[0].expr;
    EXPECT(call->kind == N_CALL && call->sym, "the test model changed");
    Symbol *table = arena_alloc(sizeof *table);
    *table = *call->sym;
    table->kind = (SymKind)97;
    call->sym = table;
    char *cu = generate(m);
    EXPECT(strstr(cu, "#define ODE_HAS_JACOBIAN 1") && strstr(cu, "#define ODE_HAS_EVENT_GRAD 0") &&
               strstr(cu, "#define ODE_HAS_RESET_JAC 1") && !strstr(cu, "void ode_model_event_grad("),
           "the generated code does not tell the groups apart");
}

int main(void)
{
    test_call_of_a_non_function();
    test_unknown_node_kind();
    test_unknown_builtin();
    test_groups_apart_in_the_code();
    arena_free_all();
    if (failures) {
        printf("%d failed\n", failures);
        return 1;
    }
    printf("unit_deriv: all passed\n");
    return 0;
}
