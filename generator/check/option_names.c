/* option_names.c — the names of `@` options, matched as XPPAUT matches them.
 *
 * XPPAUT (load_eqn.c, set_option) tries its keys in a fixed order and takes
 * the first one the option's name starts with (case-insensitively): `tol`,
 * `toler` and `tolerance` are TOL, `xplot` is XP, `nplots` is NPLOT.  A name
 * that is shorter than every key it could abbreviate matches none (`maxst`
 * is no option), and order matters (`dtmin` is DTMIN, but `dtm` is DT).
 */
#include "check/option_names.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"

/* XPPAUT's keys in its order; `name`: odegen's option, or NULL for the keys
 * that concern only XPPAUT's display, storage and tools. */
static const struct { const char *key, *name; } xpp_keys[] = {
    {"quiet", NULL}, {"logfile", NULL}, {"bell", NULL}, {"but", NULL}, {"bigfont", NULL},
    {"big", NULL}, {"smallfont", NULL}, {"small", NULL}, {"forecolor", NULL}, {"backcolor", NULL},
    {"mwcolor", NULL}, {"dwcolor", NULL}, {"grads", NULL}, {"plotfmt", NULL}, {"backimage", NULL},
    {"width", NULL}, {"height", NULL}, {"ync", NULL}, {"xnc", NULL}, {"smc", NULL}, {"umc", NULL},
    {"lt", NULL}, {"seed", "seed"}, {"back", NULL}, {"colormap", NULL}, {"nplot", NULL},
    {"dll_lib", NULL}, {"dll_fun", NULL}, {"simplot", NULL}, {"multiwin", NULL},
    /* xp2 … ylo8: the extra curves of the plot, tried before xp, yp, zp */
    {"xp2", NULL}, {"yp2", NULL}, {"zp2", NULL}, {"xhi2", NULL}, {"xlo2", NULL}, {"yhi2", NULL}, {"ylo2", NULL},
    {"xp3", NULL}, {"yp3", NULL}, {"zp3", NULL}, {"xhi3", NULL}, {"xlo3", NULL}, {"yhi3", NULL}, {"ylo3", NULL},
    {"xp4", NULL}, {"yp4", NULL}, {"zp4", NULL}, {"xhi4", NULL}, {"xlo4", NULL}, {"yhi4", NULL}, {"ylo4", NULL},
    {"xp5", NULL}, {"yp5", NULL}, {"zp5", NULL}, {"xhi5", NULL}, {"xlo5", NULL}, {"yhi5", NULL}, {"ylo5", NULL},
    {"xp6", NULL}, {"yp6", NULL}, {"zp6", NULL}, {"xhi6", NULL}, {"xlo6", NULL}, {"yhi6", NULL}, {"ylo6", NULL},
    {"xp7", NULL}, {"yp7", NULL}, {"zp7", NULL}, {"xhi7", NULL}, {"xlo7", NULL}, {"yhi7", NULL}, {"ylo7", NULL},
    {"xp8", NULL}, {"yp8", NULL}, {"zp8", NULL}, {"xhi8", NULL}, {"xlo8", NULL}, {"yhi8", NULL}, {"ylo8", NULL},
    {"xp", NULL}, {"yp", NULL}, {"zp", NULL}, {"axes", NULL}, {"njmp", NULL}, {"nout", NULL},
    {"nmesh", NULL}, {"meth", "meth"}, {"vmaxpts", NULL}, {"maxstor", NULL}, {"tor_per", NULL},
    {"jac_eps", NULL}, {"newt_tol", "newt_tol"}, {"newt_iter", "newt_iter"}, {"fold", NULL}, {"total", "total"},
    {"dtmin", "dtmin"}, {"dtmax", "dtmax"}, {"dt", "dt"}, {"t0", "t0"}, {"trans", NULL},
    {"bound", "bound"}, {"atol", "atoler"}, {"tol", "toler"}, {"delay", "delay"}, {"bandup", NULL},
    {"bandlo", NULL}, {"phi", NULL}, {"theta", NULL}, {"xlo", NULL}, {"ylo", NULL}, {"xhi", NULL},
    {"yhi", NULL}, {"xmax", NULL}, {"ymax", NULL}, {"zmax", NULL}, {"xmin", NULL}, {"ymin", NULL},
    {"zmin", NULL}, {"poimap", "poimap"}, {"poivar", "poivar"}, {"output", NULL}, {"poisgn", "poisgn"},
    {"poistop", "poistop"}, {"stoch", NULL}, {"poipln", "poipln"}, {"rangeover", NULL}, {"rangestep", NULL},
    {"rangelow", NULL}, {"rangehigh", NULL}, {"rangereset", NULL}, {"rangeoldic", NULL},
    {"range", NULL}, {"ntst", NULL}, {"nmax", NULL}, {"npr", NULL}, {"ncol", NULL}, {"dsmin", NULL},
    {"dsmax", NULL}, {"ds", NULL}, {"parmin", NULL}, {"parmax", NULL}, {"normmin", NULL},
    {"normmax", NULL}, {"epsl", NULL}, {"epsu", NULL}, {"epss", NULL}, {"runnow", NULL}, {"sec", NULL},
    {"uec", NULL}, {"spc", NULL}, {"upc", NULL}, {"autoeval", NULL}, {"autoxmax", NULL},
    {"autoymax", NULL}, {"autoxmin", NULL}, {"autoymin", NULL}, {"autovar", NULL}, {"ps_font", NULL},
    {"ps_lw", NULL}, {"ps_fsize", NULL}, {"ps_color", NULL}, {"tutorial", NULL}, {"s1", NULL},
    {"s2", NULL}, {"s3", NULL}, {"slo1", NULL}, {"slo2", NULL}, {"slo3", NULL}, {"shi1", NULL},
    {"shi2", NULL}, {"shi3", NULL}, {"postprocess", NULL}, {"histlo", NULL}, {"histhi", NULL},
    {"histbins", NULL}, {"histcol", NULL}, {"speccol", NULL}, {"speccol2", NULL}, {"specwidth", NULL},
    {"specwin", NULL}, {"dfgrid", NULL}, {"dfdraw", NULL}, {"ncdraw", NULL}, {"colorvia", NULL},
    {"colorize", NULL}, {"colorlo", NULL}, {"colorhi", NULL},
};

/* odegen's own options (XPPAUT warns that it does not know them). */
static const char *const own_options[] = {"hgrow", "hshrink", "evsteps", "evtol", "evpoints", "maxsteps", "prec",
                                          "arrays", "layout", "team", "noisesub", NULL};

bool option_from_command_line(const Node *item) { return item->loc.line == 0; }

bool option_spelled_whole(const char *name)
{
    static const char *const whole[] = {"meth", "method", "dt", "t0", "total", "toler", "tol", "atoler", "atol",
                                        "dtmin", "dtmax", "bound", "bounds", "delay", "seed", "poimap", "poivar",
                                        "poipln", "poisgn", "poistop", "newt_tol",
                                        "newt_iter", NULL};
    for (const char *const *w = whole; *w; w++)
        if (name_eq(*w, name)) return true;
    for (const char *const *o = own_options; *o; o++)
        if (name_eq(*o, name)) return true;
    return false;
}

const char *const option_list_text = "meth, dt, t0, total, toler, atoler, dtmin, dtmax, bound, hgrow, hshrink, "
                                     "evsteps, evtol, evpoints, maxsteps, prec, delay, seed, noisesub, poimap, poivar, "
                                     "poipln, poisgn, poistop, newt_tol, newt_iter";

const char *const option_suggestions[] = {"meth", "method", "dt", "t0", "total", "toler", "atoler", "dtmin",
                                          "dtmax", "bound", "bounds", "hgrow", "hshrink", "evsteps", "evtol", "evpoints",
                                          "maxsteps", "prec", "arrays", "delay", "layout", "team", "seed", "noisesub", "xp", "yp", "zp", "xlo", "xhi", "ylo", "yhi",
                                          "nplot", "maxstor", "nout", "njmp", "trans", "axes", "poimap", "poivar", "poipln",
                                          "poisgn", "poistop", "newt_tol", "newt_iter", NULL};

OptionName option_name(const char *name)
{
    OptionName r = {NULL, NULL, false};
    for (const char *const *o = own_options; *o; o++)
        if (name_eq(*o, name)) {
            r.name = *o;
            return r;
        }
    size_t len = strlen(name);
    for (size_t i = 0; i < sizeof xpp_keys / sizeof *xpp_keys; i++) {
        size_t n = strlen(xpp_keys[i].key);
        if (len >= n && !strncasecmp(name, xpp_keys[i].key, n)) {
            r.name = xpp_keys[i].name;
            r.xppaut = xpp_keys[i].key;
            r.ignored = !r.name;
            return r;
        }
    }
    return r;
}
