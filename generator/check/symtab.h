/* symtab.h — case-insensitive name → symbol map for the checks. */
#ifndef ODEGEN_SYMTAB_H
#define ODEGEN_SYMTAB_H

#include "check/model.h"

typedef struct SymTab {
    Symbol **slots;
    int cap, count;
} SymTab;

Symbol *symtab_get(const SymTab *tab, const char *name);
void symtab_put(SymTab *tab, Symbol *sym);        /* replaces nothing: callers check first */

#endif
