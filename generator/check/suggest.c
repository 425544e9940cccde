/* suggest.c — "did you mean": the closest of the names a typo could stand
 * for (declared symbols of the kinds allowed there, keywords, built-ins),
 * for the error messages of every pass. */
#include <string.h>
#include <strings.h>

#include "base/arena.h"
#include "base/util.h"
#include "check/checker.h"

void suggest_init(Suggest *s, const char *word)
{
    s->best = NULL;
    s->dist = 1000;
    s->line = 0;
    s->word = word;
}

void suggest_add_at(Suggest *s, const char *cand, int line)
{
    if (!cand || name_eq(cand, s->word))
        return;
    int d = name_distance(s->word, cand);
    int len = (int)strlen(s->word);
    int limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
    if (len == 1 && strlen(cand) == 1)
        return;     /* one letter is no typo of another ('a' for 'x') */
    if (d <= limit && d < s->dist) {
        s->dist = d;
        s->best = cand;
        s->line = line;
    }
}

void suggest_add(Suggest *s, const char *cand) { suggest_add_at(s, cand, 0); }

/* "; did you mean 'kapa' (line 2)?": the line, so that a typo in the
 * declaration is found from the place that uses the right name. */
const char *suggest_text(const Suggest *s)
{
    if (!s->best) return "";
    if (s->line > 0) return arena_printf("; did you mean '%s' (line %d)?", s->best, s->line);
    return arena_printf("; did you mean '%s'?", s->best);
}

void suggest_symbols(Checker *c, Suggest *sg, unsigned kinds)
{
    for (int i = 0; i < c->m->nsyms; i++)
        if (kinds & BIT(c->m->syms[i]->kind))
            suggest_add_at(sg, c->m->syms[i]->name, c->m->syms[i]->loc.line);
}

/* A declaration that lost the blank after its keyword (`auxenergy=…` is a
 * temporary named auxenergy): "did you mean 'aux energy' (line 10)?". */
void suggest_glued_keyword(Checker *c, Suggest *sg)
{
    static const char *const keywords[] = {"par", "param", "p", "number", "aux", "acc", NULL};
    size_t len = strlen(sg->word);
    for (int i = 0; i < c->m->nsyms && !sg->best; i++) {
        const Symbol *s = c->m->syms[i];
        size_t n = strlen(s->name);
        for (const char *const *k = keywords; *k && !sg->best; k++) {
            size_t kl = strlen(*k);
            if (n == kl + len && !strncasecmp(s->name, *k, kl) && name_eq(s->name + kl, sg->word)) {
                sg->best = arena_printf("%.*s %s", (int)kl, s->name, s->name + kl);
                sg->line = s->loc.line;
            }
        }
    }
}
