/* simc.h: the public C API of libsimc (link with `pkg-config --libs simc`).
 *
 * A model is loaded once from a scene (YAML, MJCF or URDF) and never
 * changes; any number of data objects hold states of it and are stepped
 * independently (one thread per data object; a model may be shared by
 * threads).  Units are SI.  Nothing here prints or exits: every failure
 * returns a status and fills a caller-owned simc_error with the file, line
 * and column at fault when there is one.  A data object belongs to the
 * model it was made for: a call given another model's data refuses it
 * (SIMC_ERR_ARG; NULL, NaN or nothing written for the accessors) rather
 * than read it with the wrong sizes.
 *
 * Coordinates: q and v as in output files (doc/step.md): a free joint's
 * position and linear velocity are its body frame origin's, its
 * orientation a unit quaternion [w, x, y, z], its angular velocity in its
 * joint frame.  The step itself works about each free body's centre of
 * mass; d holds the state in these coordinates too (simc_field "q" and
 * "v"), kept in step with its own.
 *
 *   simc_error err;
 *   simc_model* m = simc_load("scene.yaml", NULL, 0, &err);
 *   simc_data* d = simc_data_make(m, &err);
 *   simc_set_ctrl(m, d, 0, 1.5);            // actuator 0's input from now on
 *   simc_step(m, d, 100, &err);             // 100 steps of the scene's dt
 *   simc_get_q(m, d, q);
 *   simc_data_free(d); simc_model_free(m);
 */
#ifndef SIMC_H
#define SIMC_H

#include <signal.h> /* sig_atomic_t (simc_set_cancel) */

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define SIMC_API __attribute__((visibility("default")))
#else
#define SIMC_API
#endif

#define SIMC_VERSION_MAJOR 0
#define SIMC_VERSION_MINOR 1
#define SIMC_MAX_THREADS 256 /* the most threads contact.threads takes */

typedef struct simc_model simc_model;
typedef struct simc_data simc_data;

/* status codes: 0 is success */
enum {
  SIMC_OK = 0,
  SIMC_ERR_IO = 1,       /* a file could not be read */
  SIMC_ERR_SCENE = 2,    /* the scene is invalid (located) */
  SIMC_ERR_NOMEM = 3,
  SIMC_ERR_SIM = 4,      /* the simulation failed (diverged, solver failure) */
  SIMC_ERR_ARG = 5       /* a bad argument to this API (an index out of range) */
};

typedef struct simc_error {
  int code;
  char file[256]; /* "" when the error has no file */
  int line, col;  /* 1-based; 0 when unknown */
  char msg[768];
} simc_error;

/* "file:line:col: message" into buf ("file:line: message" without a
 * column, "file: message" without a line, the message alone without a
 * file), as the command line prints it */
SIMC_API void simc_error_string(const simc_error* err, char* buf, int bufsize);
/* the library's version, "major.minor" */
SIMC_API const char* simc_version(void);

/* ---- model ---- */
/* Load a scene file: YAML, or MJCF (.xml) and URDF (.urdf) translated;
 * sets are --set overrides ("time.step=1e-3"), nsets of them (may be 0).
 * NULL on failure (err filled). */
SIMC_API simc_model* simc_load(const char* path, const char* const* sets, int nsets,
                               simc_error* err);
SIMC_API void simc_model_free(simc_model* m);

enum { SIMC_BODY = 0, SIMC_JOINT = 1, SIMC_ACTUATOR = 2, SIMC_QPOS = 3, SIMC_DOF = 4, SIMC_GEOM = 5 };
/* how many of a kind (bodies count the world, body 0) */
SIMC_API int simc_count(const simc_model* m, int kind);
/* the name of item i of a kind (NULL when out of range); the model owns it */
SIMC_API const char* simc_name(const simc_model* m, int kind, int i);
/* the index of a name, -1 when there is none */
SIMC_API int simc_index(const simc_model* m, int kind, const char* name);
/* the scene's step and duration, s */
SIMC_API double simc_timestep(const simc_model* m);
SIMC_API double simc_duration(const simc_model* m);
/* What the loader says about the model, one item per line ("" when none):
 * SIMC_TEXT_NOTES what it changed in the scene as written (warnings),
 * SIMC_TEXT_APPROXIMATED what of a model file it approximated and how,
 * SIMC_TEXT_IGNORED what it left out (loaded with import.allow_unsupported),
 * SIMC_TEXT_DIGEST the SHA-256 of the run's inputs (the scene and every
 * file it reads, the overrides; 64 hex digits). */
enum { SIMC_TEXT_NOTES = 0, SIMC_TEXT_APPROXIMATED = 1, SIMC_TEXT_IGNORED = 2, SIMC_TEXT_DIGEST = 3 };
SIMC_API const char* simc_model_text(const simc_model* m, int what);
/* A setting of the model: SIMC_OPTION_OUTPUT_EVERY (rows every so many
 * steps), SIMC_OPTION_SOLVER (0 newton, 1 lcp), SIMC_OPTION_ON_FAILURE (0
 * fail, 1 warn), SIMC_OPTION_MAX_CONTACTS (the contact buffer's capacity);
 * -1 for an unknown one. */
enum {
  SIMC_OPTION_OUTPUT_EVERY = 0,
  SIMC_OPTION_SOLVER = 1,
  SIMC_OPTION_ON_FAILURE = 2,
  SIMC_OPTION_MAX_CONTACTS = 3
};
SIMC_API int simc_model_option(const simc_model* m, int what);
/* The digest of a run's inputs when its initial state comes from a recorded
 * run (the command line's --from spec): the model's digest with the spec
 * and that file's bytes, into out (65 bytes); the model's own for NULL. */
SIMC_API void simc_input_digest(const simc_model* m, const char* from_spec, char out[65]);
/* 1 when path is a simc output file, 0 when it is not, -1 when it cannot be
 * read (whether an output may be replaced). */
SIMC_API int simc_is_output_file(const char* path);
/* BLAS and LAPACK on the calling thread only (simc's own threads do the
 * parallel work), and OpenBLAS's idle worker threads stopped: process-wide,
 * for a program that owns its process (the command line calls it first). */
SIMC_API void simc_blas_single_thread(void);

/* ---- data ---- */
/* A state of m at its initial conditions, ready to step; NULL on failure. */
SIMC_API simc_data* simc_data_make(const simc_model* m, simc_error* err);
/* The same without the initial state's check, for a program that records
 * an unusable initial state as a failed run: simc_forward checks it. */
SIMC_API simc_data* simc_data_make_unchecked(const simc_model* m, simc_error* err);
/* The current state's derived quantities (kinematics, contacts, energies)
 * and its checks, as a step's start makes them: SIMC_ERR_SIM when it is
 * unusable (non-finite, bodies inside one another). */
SIMC_API int simc_forward(const simc_model* m, simc_data* d, simc_error* err);
/* Back to the initial conditions (controls off). */
SIMC_API int simc_data_reset(const simc_model* m, simc_data* d, simc_error* err);
SIMC_API void simc_data_free(simc_data* d);
/* dst := src (both made for m): the state, time, controls, applied forces,
 * energies and everything the next steps read of the past (the contacts'
 * memory: warm starts and stiction anchors), so that stepping both gives
 * the same results bit for bit: a branch of a run.  The contact solver's
 * cached factorization is not copied, and src forgets it too (hence src is
 * not const): src's later steps then differ from what they would have been
 * without the copy by no more than the contact solver's tolerance.
 * Allocates nothing. */
SIMC_API int simc_data_copy(const simc_model* m, simc_data* dst, simc_data* src, simc_error* err);

SIMC_API double simc_time(const simc_data* d);
/* Set d's time (s): when its next step starts, and so where the scene's
 * commands are read.  Time advances by whole steps, so it becomes k dt for
 * the nearest whole k.  SIMC_ERR_ARG when t is negative, not finite or
 * beyond 2^52 steps. */
SIMC_API int simc_set_time(const simc_model* m, simc_data* d, double t, simc_error* err);
/* q (nq) and v (nv) in the file's coordinates (above), copied out (the
 * fields "q" and "v" are the same in place); simc_set_state takes the whole
 * vectors, renormalizes quaternions and recomputes what depends on the
 * state (SIMC_ERR_ARG for a non-finite value or a zero quaternion) */
SIMC_API void simc_get_q(const simc_model* m, const simc_data* d, double* q);
SIMC_API void simc_get_v(const simc_model* m, const simc_data* d, double* v);
SIMC_API int simc_set_state(const simc_model* m, simc_data* d, const double* q, const double* v,
                            simc_error* err);

/* d's q and v from a row of a recorded run (the command line's --from):
 * spec is "RUN.h5" (its last row) or "RUN.h5:ROW" (negative: counted from
 * the end), a file of this model (its /model/q_names and v_names equal);
 * d's time, controls and forces are left as they are.  desc (may be NULL)
 * receives "RUN.h5 row R (t = T s)".  On failure d is unchanged:
 * SIMC_ERR_SCENE for a bad spec or another model's file (the message says
 * what), SIMC_ERR_IO for a file that cannot be read.  A state that was read
 * but fails its check (SIMC_ERR_SIM, as simc_forward) is d's state all the
 * same, so that a program may record it. */
SIMC_API int simc_data_load_state(const simc_model* m, simc_data* d, const char* spec, char* desc,
                                  int descsize, simc_error* err);

/* Actuator a's input from now on (a motor's command, a servo's target),
 * replacing its command in the scene until simc_clear_ctrl. */
SIMC_API int simc_set_ctrl(const simc_model* m, simc_data* d, int a, double u);
SIMC_API int simc_clear_ctrl(const simc_model* m, simc_data* d, int a);
/* the controls themselves (nu doubles, NULL without actuators), for
 * bindings that share the memory: a number sets an actuator's input, NaN
 * gives it back to its command (the state after make and reset) */
SIMC_API double* simc_ctrl(const simc_model* m, simc_data* d);
/* the input actuator a used in the last step and the generalized force it
 * applied (N or N m) */
SIMC_API double simc_ctrl_used(const simc_model* m, const simc_data* d, int a);
SIMC_API double simc_actuator_force(const simc_model* m, const simc_data* d, int a);

/* Forces applied from now on, held constant over each step (as a motor's)
 * until changed; zero after make and reset.  Both are the data's own
 * arrays, to be written in place:
 *  - simc_qfrc_applied: nv generalized forces (N or N m) in the
 *    coordinates of v above (a free joint's force at its frame origin and
 *    torque about it, world axes);
 *  - simc_xfrc_applied: per body (nbody x 6, body 0 the world, unused) a
 *    force (N) at the body's centre of mass and a torque (N m), world axes.
 * Their work is in simc_energy's e[4]. */
SIMC_API double* simc_qfrc_applied(const simc_model* m, simc_data* d);
SIMC_API double* simc_xfrc_applied(const simc_model* m, simc_data* d);

/* ---- the data's arrays, shared in place ----
 * Field i (0 <= i < simc_field_count()) is a rows x cols array of doubles,
 * row-major, that d holds for the program to read and, where writable, to
 * write in place; its pointer stays valid until simc_data_free (reset and
 * copy write into it).  The fields (their units in info->unit):
 *   q, v (writable): the state, in the coordinates above.  A write is the
 *     new state from the next call that steps or reads it (simc_step,
 *     simc_forward, simc_data_copy of it, simc_rollout, the recorder),
 *     which checks it (SIMC_ERR_ARG for a non-finite value or a zero
 *     quaternion), renormalizes its quaternions and recomputes what depends
 *     on it; until then xpos, simc_body_pose, simc_energy and the contacts
 *     are those of the state before the write.  A write of v alone leaves
 *     the step's positions as they were, bit for bit.
 *   ctrl, qfrc_applied, xfrc_applied (writable): as simc_ctrl,
 *     simc_qfrc_applied and simc_xfrc_applied below;
 *   xpos, xmat, xcom: each body's frame origin, orientation (body to world)
 *     and centre of mass at the current state;
 *   ctrl_used, actuator_force, joint_limit_force, tendon_length,
 *     constraint_force: what the last step used and applied (per actuator,
 *     joint, tendon and equality constraint row).
 * simc_field fills info (may be NULL) and returns the array, NULL when d
 * is NULL or not m's (info then has the name, and rows when m is given).
 * An array of 0 rows still has a valid pointer. */
typedef struct simc_field_info {
  const char* name;
  int rows, cols;
  int writable;
  const char* unit;
  const char* what;
} simc_field_info;
SIMC_API int simc_field_count(void);
SIMC_API int simc_field_index(const char* name);
SIMC_API double* simc_field(const simc_model* m, simc_data* d, int i, simc_field_info* info);

/* Body b's frame in the world at the current state: its origin's position
 * (m) and its orientation as a rotation matrix (row-major, body to world).
 * SIMC_ERR_ARG when b is out of range. */
SIMC_API int simc_body_pose(const simc_model* m, const simc_data* d, int b, double pos[3],
                            double rot[9]);

/* Let a long step be stopped: once *flag (e.g. set by a signal handler) is
 * non-zero, the contact solvers return and simc_step fails with
 * SIMC_ERR_SIM ("interrupted") without completing the step; NULL: never. */
SIMC_API void simc_set_cancel(const simc_model* m, simc_data* d, const volatile sig_atomic_t* flag);

/* n steps of the scene's dt; stops at the first failure (err filled).
 * Under time.accuracy each is one interval of dt, taken in substeps whose
 * estimated error stays below the accuracy (doc/step.md, "Error control"). */
SIMC_API int simc_step(const simc_model* m, simc_data* d, int n, simc_error* err);

/* N rollouts of T steps each from d's state, run in the library: rollout i
 * steps a copy of d (simc_data_copy) T times with every actuator's input at
 * step t from ctrl[(i T + t) nu + a] (NaN: its command; ctrl may be NULL
 * when nu = 0), and writes q before the first step and after each into
 * q[(i (T + 1) + t) nq ..] (the coordinates of simc_get_q).  threads
 * rollouts run at once (0: one per CPU), each on a data object of its own
 * whose contact solves run on its thread alone; the results equal the
 * serial loop's bit for bit whatever threads is.  The first failing
 * rollout (lowest i) fills err; its rows after the failure, and those of
 * the rollouts not run, are NaN.  Allocates its data objects once per
 * call. */
SIMC_API int simc_rollout(const simc_model* m, simc_data* d, int nroll, int nstep,
                          const double* ctrl, double* q, int threads, simc_error* err);

/* ---- what the last step found ---- */
typedef struct simc_contact {
  int body[2];       /* the two bodies (0: the world) */
  double point[3];   /* world, m */
  double normal[3];  /* world, from body[0] to body[1] */
  double frame[9];   /* world, rows t1, t2, n (n = normal): the impulse's axes */
  double gap;        /* signed distance at the step's start, m (< 0: penetrating) */
  double impulse[3]; /* on body[1] (body[0] takes the opposite) along frame's t1, t2, n,
                        N s, over the step */
} simc_contact;
SIMC_API int simc_ncontact(const simc_data* d);
SIMC_API int simc_get_contact(const simc_data* d, int i, simc_contact* c);
/* The first min(ncontact, max) contacts into out[]; returns how many (one
 * call for a binding that reads them all, each as simc_get_contact). */
SIMC_API int simc_contacts(const simc_data* d, simc_contact* out, int max);

/* ---- recording a run into the command line's output file ---- */
/* A recorder writes the HDF5 file the command line writes (doc/output.md)
 * for a run a program steps: simc_recorder_open writes d's current state as
 * row 0 and the file's model and attributes (status "running");
 * simc_recorder_step, called after each successful step, counts the step
 * into the run's figures (deepest contact, contact iterations, Coulomb
 * residuals) and writes a row every output.every steps; simc_recorder_frame
 * writes a row of d's state now (a failed step's, as the command line
 * does).  simc_recorder_close writes the run's figures and warnings and its
 * status: NULL for a run that reached its end ("complete", or "complete
 * with omissions: ..." for a model loaded with parts left out, after the
 * final state's check, which may instead fail it; d itself is left as it
 * is, its last step's contacts included), or the caller's own
 * ("interrupted", "failed: ..."); it always frees r.  Rows reach the file
 * in blocks and at least every 2 s, so a program that dies leaves a valid
 * file of the rows flushed so far.  A run recorded from a data object made
 * by simc_data_make and stepped n times gives the command line's file of
 * an n-step run, dataset for dataset (the wall times aside). */
typedef struct simc_recorder simc_recorder;
/* The file's provenance (every field may be NULL or 0: the defaults) */
typedef struct simc_record_options {
  const char* command_line;  /* root attribute command_line (default: "simc_recorder_open (libsimc)") */
  const char* version;       /* root attribute simc_version (default: simc_version()) */
  const char* initial_state; /* where the initial state came from (simc_data_load_state's desc) */
  const char* input_digest;  /* root attribute input_digest (default: the model's) */
  int reserve_fd;            /* > 0: a file holding space in reserve on the output's file
                                system, emptied when a write fails for want of space so
                                that the file can still be closed valid */
} simc_record_options;
/* The run's figures as simc_recorder_close found them */
typedef struct simc_run_summary {
  char status[1100];        /* the status written: "complete", "failed: ...", ... */
  long steps;               /* counted by simc_recorder_step */
  double mean_contacts, mean_iterations;
  long median_iterations;
  int max_iterations;
  double max_penetration;   /* m, the deepest contact of the run */
  double max_penetration_fraction; /* the deepest over the smaller geometry's bounding radius */
  int penetration_warning;  /* 1 when a contact went deeper than contact.penetration_warning */
  double coulomb[3];        /* J: the largest Signorini, dissipation and De Saxce residuals */
  double energy_balance;    /* J: energy now + dissipated - work done - energy at the start */
  double energy_start;      /* J: kinetic + gravity + spring at the start */
  char warnings[4096];      /* the run's warnings, "; " between them ("" when none) */
  long substeps, rejected_substeps; /* error control's (time.accuracy) accepted and
                                       rejected substeps since the start; 0 without */
} simc_run_summary;
SIMC_API simc_recorder* simc_recorder_open(const simc_model* m, simc_data* d,
                                           const char* path, const simc_record_options* opt,
                                           simc_error* err);
SIMC_API int simc_recorder_step(simc_recorder* r, const simc_model* m, simc_data* d,
                                simc_error* err);
SIMC_API int simc_recorder_frame(simc_recorder* r, const simc_model* m, simc_data* d,
                                 simc_error* err);
SIMC_API int simc_recorder_close(simc_recorder* r, const simc_model* m, simc_data* d,
                                 const char* status, simc_run_summary* summary, simc_error* err);

/* What went wrong without stopping a run: how many times since make or
 * reset warning w was raised, once at most per step and per initial state's
 * check (make, reset, set_state); 0 for an unknown w */
enum {
  SIMC_WARN_FREE_NEWTON = 0, /* the free motion's Newton iteration hit its cap */
  SIMC_WARN_CONTACT = 1,     /* the contact solver did not converge (contact.on_failure: warn) */
  SIMC_WARN_NCON = 2,        /* more contacts than contact.max_contacts: the deepest were kept */
  SIMC_WARN_FAST = 3,        /* a body moved more than its size in one step with
                                contact.speculative off: a contact may have been missed */
  SIMC_WARN_MIN_STEP = 4     /* error control (time.accuracy) accepted a step of
                                time.min_step above the accuracy asked for */
};
SIMC_API int simc_warnings(const simc_data* d, int w);

/* energies, J: kinetic, gravity, spring, and dissipated (by dampers,
 * contacts, limits and joint friction) since the start; the work of the
 * actuators and the applied forces since the start */
SIMC_API void simc_energy(const simc_data* d, double e[5]);

#ifdef __cplusplus
}
#endif
#endif
