/* ref_written.h — the written-out example model's functions (ref_written.c). */
#ifndef REF_WRITTEN_H
#define REF_WRITTEN_H
#include <string.h>
void ref_rhs(const double *p, double t, const double *y, double *dy);
void ref_events(const double *p, double t, const double *y, double *g);
void ref_jac(const double *p, double t, const double *y, double *J);      /* dense, row-major */
void ref_dfdt(const double *p, double t, const double *y, double *ft);
void ref_events_jvp(const double *p, double t, const double *y, const double *v, double vt, double *gv);
#endif
