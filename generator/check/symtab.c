/* symtab.c — open addressing over lower-cased names, in the arena. */
#include "check/symtab.h"

#include <ctype.h>
#include <string.h>

#include "base/arena.h"
#include "base/util.h"

static unsigned hash_name(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned)tolower((unsigned char)*s)) * 16777619u;
    return h;
}

Symbol *symtab_get(const SymTab *tab, const char *name)
{
    if (!tab->cap)
        return NULL;
    for (unsigned i = hash_name(name) & (unsigned)(tab->cap - 1);; i = (i + 1) & (unsigned)(tab->cap - 1)) {
        Symbol *s = tab->slots[i];
        if (!s)
            return NULL;
        if (name_eq(s->name, name))
            return s;
    }
}

static void insert(Symbol **slots, int cap, Symbol *sym)
{
    unsigned i = hash_name(sym->name) & (unsigned)(cap - 1);
    while (slots[i])
        i = (i + 1) & (unsigned)(cap - 1);
    slots[i] = sym;
}

void symtab_put(SymTab *tab, Symbol *sym)
{
    if (2 * (tab->count + 1) > tab->cap) {
        int cap = tab->cap ? 2 * tab->cap : 64;
        Symbol **slots = arena_alloc(sizeof(Symbol *) * (size_t)cap);
        for (int i = 0; i < tab->cap; i++)
            if (tab->slots[i])
                insert(slots, cap, tab->slots[i]);
        tab->slots = slots;
        tab->cap = cap;
    }
    insert(tab->slots, tab->cap, sym);
    tab->count++;
}
