/* run: what a run of many steps keeps beside its state, shared by the
 * command line (src/cli) and the library's recorder (include/simc.h): the
 * run's figures (the deepest contact, when and between which bodies; the
 * contact iterations' median, mean and largest; the largest Coulomb
 * residuals), its warnings, said once at its end, and the status a run
 * that reached its end earns.  Both write the same output file from them. */
#ifndef SC_RUN_H
#define SC_RUN_H

#include "core/core.h"
#include "io_h5/io_h5.h"
#include "model/model.h"
#include "state/state.h"

typedef struct sc_run {
  double E0;        /* kinetic + gravity + spring energy at the start, J */
  long steps;       /* steps counted by sc_run_step */
  double max_pen;   /* deepest contact, m */
  double sum_iter, sum_ncon;
  /* the deepest contact relative to the smaller geometry's size, its depth
   * (m), when (s) and between which bodies, and the steps whose deepest
   * passed contact.penetration_warning */
  double max_frac, frac_depth, frac_time;
  int frac_pair[2];
  long frac_steps;
  int max_iter;
  double max_coulomb[3]; /* J: Signorini, dissipation, De Saxce */
  int hist_n;            /* histogram of contact iterations (for the median) */
  long* hist;
} sc_run;

/* Start from d's state (its energies and depths as the run's first);
 * allocates the histogram (SC_ERR_NOMEM). */
sc_status sc_run_init(sc_run* r, const sc_model* m, const sc_data* d, sc_error* err);
void sc_run_free(sc_run* r);
/* After each step (whether it succeeded or not). */
void sc_run_step(sc_run* r, const sc_model* m, const sc_data* d);
/* After a state checked outside a step (the final state's sc_forward):
 * its contacts' depths count. */
void sc_run_state(sc_run* r, const sc_data* d);
long sc_run_median_iterations(const sc_run* r);
/* The run's warnings, one string ("; " between them: a deep contact, the
 * model's notes, a fast body) into warnings, and the deepest contact's
 * bodies ("a / b") into bodies. */
void sc_run_warnings(const sc_run* r, const sc_model* m, const sc_data* d, char* warnings,
                     size_t nw, char* bodies, size_t nb);
/* The summary the output's root attributes take (strings borrowed). */
sc_h5_summary sc_run_summary(const sc_run* r, const char* bodies, const char* warnings);
/* The status of a run that reached its end: "complete", or, for a model
 * run without part of itself (--allow-unsupported), "complete with
 * omissions: ..." naming what was left out. */
void sc_run_complete_status(const sc_model* m, char* status, size_t n);

/* The file (into path, n bytes) and row (-1, the last, when none) of a
 * start spec RUN.h5[:ROW]; -1 when the file part is empty or too long. */
int sc_run_split_start(const char* spec, char* path, size_t n, long long* row);

/* A recorded run's state as a start (simc --from, simc_data_load_state):
 * spec is RUN.h5 or RUN.h5:ROW (ROW default -1, the last; negative counts
 * from the end); the row's q and v, in the step's coordinates
 * (state.h: a free joint about its centre of mass), into q (m->nq) and v
 * (m->nv), and "RUN.h5 row R (t = T s)" into desc.  The file's
 * coordinates must be m's (sc_h5_read_state).  SC_ERR_SCENE for a bad
 * spec or a file of another model (err's message names what is wrong),
 * SC_ERR_IO for one that cannot be read; q and v may then hold part of a
 * row. */
sc_status sc_run_read_start(const char* spec, const sc_model* m, double* q, double* v, char* desc,
                            size_t n, sc_error* err);

#endif
