/* mpi_scan.c — the library's model_mpi_scan (api.h; built with make MPI=1,
 * -DODE_MPI): a scan spread over the processes of a communicator that the
 * calling program owns, through the manager/worker protocol of
 * mpi_chunks.c.  Each process keeps its chunks' results: its callbacks
 * load each chunk's systems and collect its recorded values.
 */
#ifdef ODE_MPI
#ifndef ODEGEN_GENERATED
#include "mpi_chunks.c"
#endif

#include <stdio.h>
#include <string.h>

typedef struct OdeMpiScan {
    model_solver *s;
    int transient, record;
    model_mpi_chunk_fn load, collect;
    void *user;
    int code;                  /* this process's failure: a model code, or a callback's value */
} OdeMpiScan;

/* A callback's or the solver's failure: its code kept, its message given. */
static int ode_mpi_scan_failed(OdeMpiScan *x, int code, const char *what, char *error, size_t size)
{
    x->code = code;
    if (what) snprintf(error, size, "the %s callback returned %d", what, code);
    else snprintf(error, size, "%s", model_solver_error(x->s));
    return 1;
}

static int ode_mpi_scan_start(void *ctx, int slot, const OdeAssign *a, char *error, size_t size)
{
    OdeMpiScan *x = (OdeMpiScan *)ctx;
    (void)slot;
    int rc = ode_solver_resize(x->s, (int)a->count);
    if (rc != MODEL_OK) return ode_mpi_scan_failed(x, rc, NULL, error, size);
    rc = x->load(x->s, a->first, (int)a->count, x->user);
    if (rc != 0) return ode_mpi_scan_failed(x, rc, "load", error, size);
    rc = ode_launch(x->s, x->transient, x->record);
    return rc == MODEL_OK ? 0 : ode_mpi_scan_failed(x, rc, NULL, error, size);
}

static int ode_mpi_scan_finish(void *ctx, int slot, const OdeAssign *a, OdeDone *d, char *error, size_t size)
{
    OdeMpiScan *x = (OdeMpiScan *)ctx;
    (void)slot;
    (void)a;
    model_stats st;
    int rc = ode_finish(x->s);
    if (rc == MODEL_OK) rc = model_solver_stats(x->s, &st);
    if (rc != MODEL_OK) return ode_mpi_scan_failed(x, rc, NULL, error, size);
    d->steps = st.steps;
    d->evals = st.evals;
    for (int k = 0; k < MODEL_NSTATUS; k++) d->count[k] = st.count[k];
    d->lyap_off = st.lyap_trace_off;
    d->seconds = x->s->kernel_seconds;
    d->nblocks = 0;
    return 0;
}

static int ode_mpi_scan_collect(void *ctx, int slot, const OdeAssign *a, OdeLink *l, char *error, size_t size)
{
    OdeMpiScan *x = (OdeMpiScan *)ctx;
    (void)slot;
    (void)l;
    if (!x->collect) return 0;
    const int rc = x->collect(x->s, a->first, (int)a->count, x->user);
    return rc == 0 ? 0 : ode_mpi_scan_failed(x, rc, "collect", error, size);
}

int model_mpi_scan(MPI_Comm comm, model_solver *solver, long long total, int transient, int record,
                   model_mpi_chunk_fn load, model_mpi_chunk_fn collect, void *user)
{
    int rc = ode_enter(solver, __func__);
    if (rc != MODEL_OK) return rc;
    if (total < 0 || !load || transient < 0 || record < 0 || transient > INT_MAX - record)
        return ode_fail(solver, MODEL_ERR_ARG, "total %lld, transient %d, record %d (all >= 0) and a load callback needed",
                        total, transient, record);
    OdeMpiScan x;
    memset(&x, 0, sizeof x);
    x.s = solver;
    x.transient = transient;
    x.record = record;
    x.load = load;
    x.collect = collect;
    x.user = user;
    const int size0 = solver->cap;

    MPI_Comm own;
    if (MPI_Comm_dup(comm, &own) != MPI_SUCCESS) return ode_fail(solver, MODEL_ERR_MPI, "MPI_Comm_dup failed");
    MPI_Comm_set_errhandler(own, MPI_ERRORS_RETURN);
    int rank, size, level = MPI_THREAD_SINGLE;
    MPI_Comm_rank(own, &rank);
    MPI_Comm_size(own, &size);
    MPI_Query_thread(&level);
    /* Rank 0's callbacks may call MPI while its manager does: it computes
     * only with MPI_THREAD_MULTIPLE (or alone). */
    const int computes = level >= MPI_THREAD_MULTIPLE || size == 1;
    OdeManager m;
    memset(&m, 0, sizeof m);
    int bad = rank == 0 && ode_mgr_init(&m, own, 0, total, solver->cap, computes) != 0;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, own);
    if (bad) {
        ode_mgr_free(&m);
        MPI_Comm_free(&own);
        return ode_fail(solver, MODEL_ERR_NOMEM, "out of memory for the chunks' table");
    }
    OdeWorker w;
    memset(&w, 0, sizeof w);
    w.ctx = &x;
    w.slots = 1;
    w.limit = solver->cap;
    w.start = ode_mpi_scan_start;
    w.finish = ode_mpi_scan_finish;
    w.deliver = ode_mpi_scan_collect;
    char text[700] = "";
    int failed = ode_chunks_run(&m, own, rank != 0 || computes ? &w : NULL);
    (void)failed;

    /* Every process learns the first failure: who, and what. */
    int who = rank == 0 ? m.failed : 0;
    if (rank == 0 && m.failed) snprintf(text, sizeof text, "%s", m.failure);
    MPI_Request req;
    if (MPI_Ibcast(&who, 1, MPI_INT, 0, own, &req) == MPI_SUCCESS) ode_watch_wait(&req, "ending the scan");
    if (who && MPI_Ibcast(text, (int)sizeof text, MPI_CHAR, 0, own, &req) == MPI_SUCCESS)
        ode_watch_wait(&req, "ending the scan");
    if (rank == 0) ode_mgr_free(&m);
    MPI_Comm_free(&own);

    solver->op = __func__;   /* the callbacks called other functions */
    if (solver->n != size0) ode_solver_resize(solver, size0);
    if (!who) return MODEL_OK;
    if (who - 1 == rank && x.code != 0) {
        ode_fail(solver, x.code < 0 ? x.code : MODEL_ERR_MPI, "%s", text);
        return x.code;
    }
    return ode_fail(solver, MODEL_ERR_MPI, "process %d of the communicator failed: %s", who - 1, text);
}

#endif /* ODE_MPI */
