/* options_file.c — `option FILE` (`o FILE`): XPPAUT's options file, whose
 * values XPPAUT never takes.
 *
 * XPPAUT remembers the name (form_ode.c: the `O…` command) and reads the file
 * when it sets up the run (load_eqn.c, read_defaults: one value a line, by
 * position — fonts, plot columns, nout, the method's number, maxstor, total,
 * dt, t0, trans, bound, dtmin, dtmax, toler, delay, the plot window).  It
 * takes a value only where the option is not set yet; but by then it has
 * given every option its default and marked it set (the lines just before the
 * file is opened), so only the two font names are read, and the run is the
 * same with the file, without it, or with the line removed (XPPAUT 6.11: a
 * file giving total=30 and the method modeuler runs 20 time units of RK4,
 * tests/xpp/corpus/options_file.ode).  odegen does the same — it does not open
 * the file at all, so nothing of it is read, run or written anywhere — and
 * says so in a note. */
#include "check/checker.h"
#include "front/diag.h"

void note_options_files(const Program *prog)
{
    for (const Node *d = prog->decls; d; d = d->next)
        if (d->kind == D_OPTFILE)
            note_at(d->name_loc, "XPPAUT's options file '%s' is not read: XPPAUT opens it only after every option "
                                 "has its default, and then takes none of its values (only its font names); "
                                 "odegen runs as XPPAUT does, with the file's @ lines and the defaults (write the "
                                 "options file's values as @ lines to use them)", d->name);
}
