/* simc: the command-line interface (doc/cli.md).
 *
 *   simc SCENE.yaml [-o OUT.h5] [--solver newton|lcp] [--set KEY=VALUE]...
 *                   [--duration T] [--dt H] [--accuracy E] [--trace-solver] [--max-output BYTES] [--force]
 *                   [--from RUN.h5[:ROW]] [--quiet] [--check] [--digest] [--version]
 *
 * Exit codes: 0 ok; 1 invalid scene or arguments; 2 simulation failed;
 * 3 I/O error.  Only this file prints or exits.  It drives the library
 * through its public API (include/simc.h) alone: arguments, the output's
 * lock and checks, signals, progress and messages are its own.
 *
 * The output is written in place (so a killed run leaves a readable file
 * with status "running").  While it runs, OUT.lock next to it holds an
 * exclusive fcntl lock (a second run on the same OUT refuses) and
 * RESERVE_BYTES of space that the writer releases to close the file valid
 * when the disk fills up; the lock file is removed at the end.  OUT.lock is
 * named from OUT with its links resolved, so every name of the file takes
 * the same lock, and is used only when it is a regular file of one link
 * owned by the user (never through a link: it is truncated and filled). */
/* realpath (XSI): every name of one output resolves to one lock */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "simc.h"

#define EXIT_SCENE 1
#define EXIT_SIM 2
#define EXIT_IO 3

/* The longest run accepted: more steps than this is a mistake in time.step
 * or time.duration, not a simulation anyone waits for. */
#define MAX_STEPS 1e10
/* default --max-output: 10 GB */
#define DEFAULT_MAX_OUTPUT 10e9
#define RESERVE_BYTES 65536

static volatile sig_atomic_t interrupted;
static void on_signal(int sig) { interrupted = sig; }

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void usage(FILE* f) {
  fprintf(f,
          "usage: simc SCENE.yaml [-o OUT.h5] [--solver newton|lcp] [--set KEY=VALUE]...\n"
          "                       [--duration T] [--dt H] [--accuracy E] [--threads N|auto]\n"
          "                       [--trace-solver]\n"
          "                       [--max-output BYTES] [--from RUN.h5[:ROW]] [--allow-unsupported]\n"
          "                       [--strict] [--force] [--quiet] [--check] [--digest] [--version]\n"
          "  SCENE              a simc scene (YAML), or a MuJoCo model (MJCF) or URDF robot\n"
          "                     (XML, told by its first character, '<'), translated into a scene\n"
          "  -o OUT.h5          output file (default: <scene basename>.h5 here)\n"
          "  --solver S         contact solver: newton (convex, default) or lcp (Lemke baseline)\n"
          "  --set KEY=VALUE    override a scene value by its dotted path, e.g.\n"
          "                     --set contact.defaults.friction=0.3 --set bodies.ball.mass=2\n"
          "  --duration T       simulated time, s (same as --set time.duration=T)\n"
          "  --dt H             time step, s (same as --set time.step=H)\n"
          "  --accuracy E       error-controlled steps: each step's estimated error in q and v\n"
          "                     below E (absolute below 1, relative above; doc/step.md), time.step\n"
          "                     the longest step (same as --set time.accuracy=E)\n"
          "  --threads N        solve the contact islands of a step on N threads (newton solver;\n"
          "                     auto: one per online CPU; default 1); results are bit-identical\n"
          "                     whatever N (same as --set contact.threads=N)\n"
          "  --trace-solver     record every Newton iteration in /solver/trace\n"
          "                     (same as --set output.solver_trace=true)\n"
          "  --allow-unsupported  an MJCF model's elements that change the dynamics and are\n"
          "                     not translated (listed in the error) are left out, not refused;\n"
          "                     the run's status says so (complete with omissions: ...)\n"
          "  --strict           refuse an MJCF model whose contact parameters (solref, solimp,\n"
          "                     margin, gap) simc's contact law renders only approximately\n"
          "                     (default: translated, listed on stderr and in the output's\n"
          "                     root attribute approximated)\n"
          "  --floating-base    a URDF's root link moves freely (default: fixed to the world)\n"
          "  --model-path DIR   a URDF's package://PKG/FILE meshes are DIR/PKG/FILE\n"
          "  --max-output B     refuse runs whose output would exceed B bytes (suffix k, M, G, T;\n"
          "                     default 10G; 0: no limit)\n"
          "  --from RUN.h5[:ROW]  start from row ROW (default -1: the last) of a run of this\n"
          "                     scene: its recorded q and v, read by simc (no shell involved)\n"
          "  --force            replace an OUT.h5 that is not a simc output\n"
          "  --quiet            no progress and no summary line\n"
          "  --check            validate the scene and exit\n"
          "  --digest           print the digest of the run's inputs (the scene after overrides\n"
          "                     and every file it reads; the output's input_digest) and exit\n"
          "  --version          print the version and exit\n"
          "exit codes: 0 ok, 1 invalid scene or arguments, 2 simulation failed, 3 I/O error\n");
}

static int arg_error(const char* fmt, const char* a) {
  fprintf(stderr, "simc: ");
  fprintf(stderr, fmt, a);
  fprintf(stderr, "\n");
  usage(stderr);
  return EXIT_SCENE;
}

static int positive_number(const char* s) {
  char* end;
  errno = 0;
  double x = strtod(s, &end);
  return end != s && *end == '\0' && errno == 0 && isfinite(x) && x > 0;
}

/* a whole number of threads in [1, SIMC_MAX_THREADS] */
static int thread_count(const char* s) {
  char* end;
  errno = 0;
  long n = strtol(s, &end, 10);
  return end != s && *end == '\0' && errno == 0 && n >= 1 && n <= SIMC_MAX_THREADS;
}

static void default_output(const char* scene, char* out, size_t n) {
  const char* base = strrchr(scene, '/');
  base = base ? base + 1 : scene;
  snprintf(out, n, "%s", base);
  char* dot = strrchr(out, '.');
  if (dot && (strcmp(dot, ".yaml") == 0 || strcmp(dot, ".yml") == 0)) *dot = '\0';
  size_t len = strlen(out);
  snprintf(out + len, n - len, ".h5");
}

/* "10G", "512k", "1e9": bytes (decimal suffixes); -1 when malformed */
/* BYTES of --max-output: a decimal number (digits, an optional fraction),
 * an optional suffix k, M, G or T (powers of 1000), 0 or at least a byte; no
 * sign, exponent or hexadecimal (strtod alone took 0x10, 1e3k and 1e-300) */
static double parse_size(const char* s) {
  const char* c = s;
  int digits = 0;
  while (*c >= '0' && *c <= '9') c++, digits++;
  if (*c == '.')
    for (c++; *c >= '0' && *c <= '9'; c++) digits++;
  if (!digits || (*c && (strchr("kMGT", *c) == NULL || c[1] != '\0'))) return -1;
  char* end;
  errno = 0;
  double x = strtod(s, &end);
  if (end == s || errno != 0 || !isfinite(x) || x < 0) return -1;
  double mult = 1;
  if (*end) {
    const char* u = "kMGT";
    const char* p = strchr(u, *end);
    if (!p || end[1] != '\0') return -1;
    mult = pow(1e3, (double)(p - u + 1));
  }
  /* 0 is "no limit"; anything else is at least a byte */
  return x == 0 || x * mult >= 1 ? x * mult : -1;
}

/* steps = duration / dt, checked: finite, at most MAX_STEPS, and a whole
 * number of steps (a run must end at time.duration, not past it).  Returns
 * the count or -1 with a message on stderr. */
static long step_count(const simc_model* m) {
  double T = simc_duration(m), h = simc_timestep(m);
  double n = T / h;
  if (!isfinite(n) || n > MAX_STEPS) {
    fprintf(stderr,
            "simc: time.duration %g s / time.step %g s = %g steps, more than the limit of %.0e "
            "steps\n",
            T, h, n, MAX_STEPS);
    return -1;
  }
  double r = floor(n + 0.5);
  if (fabs(n - r) > 1e-6 * (r > 1 ? r : 1) || r < 1) {
    fprintf(stderr,
            "simc: time.duration %g s is not a whole number of time.step %g s steps (%.9g); "
            "the run would not end at %g s: choose a duration that is a multiple of the step\n",
            T, h, n, T);
    return -1;
  }
  return (long)r;
}

/* bytes of one recorded frame without its contact rows (io_h5's layout) */
static double frame_bytes(const simc_model* m) {
  return 8.0 * (1 + simc_count(m, SIMC_QPOS) + simc_count(m, SIMC_DOF) + 5 + 2) + 8 /* start */ +
         4.0 * 5 /* int32 columns */ +
         8.0 * 7 * simc_count(m, SIMC_BODY) /* /body/position, /body/orientation */;
}

static int same_file(const struct stat* a, const struct stat* b) {
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Take OUT.lock (an exclusive fcntl lock, so a second run on the same OUT
 * refuses) and fill it with the space reserve.  Returns the descriptor or
 * -1 with a message on stderr. */
/* OUT's lock file name: OUT with its links resolved (the file itself when
 * it exists, else its directory), plus ".lock"; -1 with a message when OUT
 * is a dangling link or has several names (hard links: a run through
 * another name would take another lock) */
static int lock_name(const char* out, char* lockpath, size_t n) {
  char res[PATH_MAX];
  struct stat l, st;
  if (lstat(out, &l) == 0) {
    if (stat(out, &st) != 0) {
      fprintf(stderr, "simc: -o %s is a symbolic link to a missing file; refusing to write "
                      "through it\n", out);
      return -1;
    }
    if (S_ISREG(st.st_mode) && st.st_nlink > 1) {
      fprintf(stderr,
              "simc: -o %s has %ld names (hard links); a run through another name would not "
              "see this run's lock, so simc refuses to write it (copy it, or remove the other "
              "names)\n",
              out, (long)st.st_nlink);
      return -1;
    }
    if (!realpath(out, res)) {
      fprintf(stderr, "simc: -o %s: cannot resolve its path: %s\n", out, strerror(errno));
      return -1;
    }
  } else {
    /* a new file: its directory resolved, its own name kept */
    const char* slash = strrchr(out, '/');
    char dir[PATH_MAX];
    const char* base = slash ? slash + 1 : out;
    if (slash) {
      size_t k = (size_t)(slash - out);
      if (k == 0) k = 1; /* "/name" */
      if (k >= sizeof dir) {
        fprintf(stderr, "simc: %s: path too long for its lock file\n", out);
        return -1;
      }
      memcpy(dir, out, k);
      dir[k] = 0;
    } else {
      strcpy(dir, ".");
    }
    char rdir[PATH_MAX];
    if (!realpath(dir, rdir)) {
      fprintf(stderr, "simc: -o %s: cannot resolve its directory: %s\n", out, strerror(errno));
      return -1;
    }
    if ((size_t)snprintf(res, sizeof res, "%s/%s", strcmp(rdir, "/") ? rdir : "", base) >=
        sizeof res) {
      fprintf(stderr, "simc: %s: path too long for its lock file\n", out);
      return -1;
    }
  }
  if ((size_t)snprintf(lockpath, n, "%s.lock", res) >= n) {
    fprintf(stderr, "simc: %s: path too long for its lock file\n", out);
    return -1;
  }
  return 0;
}

static int lock_output(const char* out, char* lockpath, size_t n, int* busy) {
  *busy = 0;
  if (lock_name(out, lockpath, n) != 0) return -1;
  for (int attempt = 0; attempt < 10; attempt++) {
    int fd = open(lockpath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
      fprintf(stderr, "simc: %s: cannot create the lock file: %s%s\n", lockpath, strerror(errno),
              errno == ELOOP ? " (it is a symbolic link; simc never writes through one)" : "");
      return -1;
    }
    /* it is truncated and filled below: only our own plain file */
    struct stat lk;
    if (fstat(fd, &lk) != 0 || !S_ISREG(lk.st_mode) || lk.st_nlink != 1 ||
        lk.st_uid != geteuid()) {
      fprintf(stderr,
              "simc: %s: the lock file is not a regular file of one link owned by you; "
              "refusing to use it (remove it if no simc run is writing %s)\n",
              lockpath, out);
      close(fd);
      return -1;
    }
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    if (fcntl(fd, F_SETLK, &fl) != 0) {
      int e = errno;
      if (e == EACCES || e == EAGAIN) {
        close(fd);
        *busy = 1;
        fprintf(stderr,
                "simc: %s: another simc run is writing this file (it holds %s); not touching "
                "it\n",
                out, lockpath);
        return -1;
      }
      /* a file system without locks (some network mounts): run unguarded */
      fprintf(stderr,
              "simc: warning: %s: cannot lock (%s); a second run on the same output would not "
              "be detected\n",
              lockpath, strerror(e));
    }
    /* the previous holder may have removed the lock file between our open
     * and our lock: then the lock is on a dead inode, try again */
    struct stat a, b;
    if (fstat(fd, &a) == 0 && stat(lockpath, &b) == 0 && same_file(&a, &b)) {
      static const char zeros[4096];
      int ok = ftruncate(fd, 0) == 0;
      for (int i = 0; ok && i < RESERVE_BYTES / 4096; i++) ok = write(fd, zeros, sizeof zeros) == (ssize_t)sizeof zeros;
      ok = ok && fsync(fd) == 0;
      if (!ok) {
        fprintf(stderr, "simc: %s: cannot reserve %d bytes next to the output: %s\n", lockpath,
                RESERVE_BYTES, strerror(errno));
        unlink(lockpath);
        close(fd);
        return -1;
      }
      return fd;
    }
    close(fd);
  }
  fprintf(stderr, "simc: %s: cannot take the lock (the file keeps changing)\n", lockpath);
  return -1;
}

static void unlock_output(int fd, const char* lockpath) {
  if (fd < 0) return;
  unlink(lockpath); /* while still locked: a waiting run then retries on a fresh file */
  close(fd);
}

/* May OUT be (re)written?  Never the scene itself (also through a link),
 * only a regular file.  Checked before taking the lock. */
static int check_output_path(const char* out, const char* scene) {
  struct stat so, ss;
  if (stat(out, &so) != 0) return 0; /* does not exist (or unreachable: the create says why) */
  if (stat(scene, &ss) == 0 && same_file(&so, &ss)) {
    fprintf(stderr, "simc: -o %s is the scene file itself; refusing to overwrite it\n", out);
    return EXIT_SCENE;
  }
  if (!S_ISREG(so.st_mode)) {
    fprintf(stderr, "simc: -o %s is %s, not a regular file\n", out,
            S_ISDIR(so.st_mode) ? "a directory" : "a device, pipe or socket");
    return EXIT_SCENE;
  }
  return 0;
}

/* An existing non-empty OUT is replaced only when it is a simc output or
 * with --force.  Read under the lock: a running writer's file is not
 * looked at. */
static int check_output(const char* out, int force) {
  struct stat so;
  if (stat(out, &so) != 0 || force || so.st_size == 0) return 0;
  if (simc_is_output_file(out) != 1) {
    fprintf(stderr,
            "simc: %s exists and is not a simc output file; refusing to replace it "
            "(use --force to replace it anyway)\n",
            out);
    return EXIT_SCENE;
  }
  return 0;
}

static void print_error(const simc_error* err);

/* the line of a newline-separated list at p: its length in *n, and where
 * the next line starts (NULL: none) */
static const char* line_at(const char* p, int* n) {
  const char* e = strchr(p, '\n');
  *n = e ? (int)(e - p) : (int)strlen(p);
  return e && e[1] ? e + 1 : NULL;
}

/* each line of list (may be NULL) on stderr as "simc: what: line" */
static void say_lines(const char* what, const char* list) {
  for (const char* p = list && *list ? list : NULL; p;) {
    int n;
    const char* next = line_at(p, &n);
    fprintf(stderr, "simc: %s: %.*s\n", what, n, p);
    p = next;
  }
}

/* --from RUN.h5[:ROW]: the state (q, v) of row ROW of a recorded run
 * (default -1, the last; negative counts from the end) as this run's initial
 * state, read by simc itself: the file's coordinates must be this scene's
 * (/model/q_names and /model/v_names equal), quaternions are renormalized.
 * desc gets "RUN.h5 row R (t = T s)".  Returns 0 or an exit code, with a
 * message on stderr. */
static int load_from(const char* spec, const simc_model* m, simc_data* d, char* desc, int n,
                     int quiet) {
  simc_error err;
  const int st = simc_data_load_state(m, d, spec, desc, n, &err);
  /* (a state that was read but fails its check is recorded as a failed
   * run's first row, below) */
  if (st != SIMC_OK && st != SIMC_ERR_SIM) {
    if (st == SIMC_ERR_SCENE && !err.file[0]) fprintf(stderr, "simc: --from %s\n", err.msg);
    else if (st == SIMC_ERR_SCENE) fprintf(stderr, "simc: --from %s: %s\n", err.file, err.msg);
    else print_error(&err);
    return st == SIMC_ERR_SCENE ? EXIT_SCENE : EXIT_IO;
  }
  if (!quiet) fprintf(stderr, "simc: initial state from %s\n", desc);
  return 0;
}

static int exit_code(int s) {
  switch (s) {
    case SIMC_OK: return 0;
    case SIMC_ERR_SCENE: return EXIT_SCENE;
    case SIMC_ERR_IO: return EXIT_IO;
    default: return EXIT_SIM;
  }
}

static void print_error(const simc_error* err) {
  char buf[1200];
  simc_error_string(err, buf, sizeof buf);
  fprintf(stderr, "%s\n", buf);
}

/* sets: room for argc overrides; owned: strings run() allocates, freed by main */
static int run(int argc, char** argv, const char** sets, char** owned, int* nowned_out) {
  const char* scene = NULL;
  const char* out_arg = NULL;
  int quiet = 0, check = 0, force = 0, digest = 0;
  double max_output = DEFAULT_MAX_OUTPUT;
  const char* from = NULL; /* --from RUN.h5[:ROW] */
  int nsets = 0, nowned = 0;
  for (int i = 1; i < argc; i++) {
    const char* a = argv[i];
    int has_next = i + 1 < argc;
    if (strcmp(a, "--version") == 0) {
      printf("simc %s\n", SC_VERSION);
      return 0;
    } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "-o") == 0) {
      if (!has_next) return arg_error("%s needs a file name", a);
      out_arg = argv[++i];
      if (out_arg[0] == '\0') return arg_error("%s needs a file name", a);
    } else if (strcmp(a, "--set") == 0) {
      if (!has_next) return arg_error("%s needs KEY=VALUE", a);
      sets[nsets++] = argv[++i];
    } else if (strncmp(a, "--set=", 6) == 0) {
      sets[nsets++] = a + 6;
    } else if (strcmp(a, "--solver") == 0 || strcmp(a, "--duration") == 0 ||
               strcmp(a, "--dt") == 0 || strcmp(a, "--threads") == 0 ||
               strcmp(a, "--accuracy") == 0) {
      if (!has_next) return arg_error("%s needs a value", a);
      const char* val = argv[++i];
      const char* key = strcmp(a, "--solver") == 0     ? "contact.solver"
                        : strcmp(a, "--duration") == 0 ? "time.duration"
                        : strcmp(a, "--threads") == 0  ? "contact.threads"
                        : strcmp(a, "--accuracy") == 0 ? "time.accuracy"
                                                       : "time.step";
      if (strcmp(a, "--solver") == 0) {
        if (strcmp(val, "newton") != 0 && strcmp(val, "lcp") != 0)
          return arg_error("--solver: unknown solver '%s' (expected newton or lcp)", val);
      } else if (strcmp(a, "--threads") == 0) {
        if (strcmp(val, "auto") != 0 && !thread_count(val)) {
          fprintf(stderr, "simc: --threads: expected auto or a number of threads from 1 to %d, "
                  "got '%s'\n", SIMC_MAX_THREADS, val);
          return EXIT_SCENE;
        }
      } else if (!positive_number(val)) {
        fprintf(stderr, "simc: %s: expected a positive number%s, got '%s'\n", a,
                strcmp(a, "--accuracy") == 0 ? "" : " of seconds", val);
        return EXIT_SCENE;
      }
      size_t n = strlen(key) + strlen(val) + 2;
      char* s = malloc(n);
      if (!s) return EXIT_SIM;
      snprintf(s, n, "%s=%s", key, val);
      owned[nowned++] = s;
      *nowned_out = nowned;
      sets[nsets++] = s;
    } else if (strcmp(a, "--trace-solver") == 0) {
      sets[nsets++] = "output.solver_trace=true";
    } else if (strcmp(a, "--allow-unsupported") == 0) {
      sets[nsets++] = "import.allow_unsupported=true"; /* an MJCF model's; see doc/import.md */
    } else if (strcmp(a, "--strict") == 0) {
      sets[nsets++] = "import.strict=true"; /* see doc/import.md */
    } else if (strcmp(a, "--floating-base") == 0) {
      sets[nsets++] = "import.floating_base=true"; /* a URDF's root link free */
    } else if (strcmp(a, "--model-path") == 0) {
      if (!has_next) return arg_error("%s needs a directory", a);
      const char* dir = argv[++i];
      size_t n = strlen(dir) + sizeof "import.model_path=";
      char* s = malloc(n);
      if (!s) return EXIT_SIM;
      snprintf(s, n, "import.model_path=%s", dir);
      owned[nowned++] = s;
      *nowned_out = nowned;
      sets[nsets++] = s;
    } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
      quiet = 1;
    } else if (strcmp(a, "--check") == 0) {
      check = 1;
    } else if (strcmp(a, "--digest") == 0) {
      digest = 1;
    } else if (strcmp(a, "--force") == 0) {
      force = 1;
    } else if (strcmp(a, "--from") == 0) {
      if (!has_next) return arg_error("%s needs RUN.h5 or RUN.h5:ROW", a);
      from = argv[++i];
    } else if (strcmp(a, "--max-output") == 0) {
      if (!has_next) return arg_error("%s needs a size in bytes", a);
      max_output = parse_size(argv[++i]);
      if (max_output < 0)
        return arg_error("--max-output: expected a size in bytes such as 500M or 20G, got '%s'",
                         argv[i]);
    } else if (a[0] == '-' && a[1] != '\0') {
      return arg_error("unknown option '%s'", a);
    } else if (!scene) {
      scene = a;
    } else {
      return arg_error("more than one scene given ('%s')", a);
    }
  }
  if (!scene) {
    usage(stderr);
    return EXIT_SCENE;
  }

  simc_error err;
  simc_model* m = simc_load(scene, sets, nsets, &err);
  if (!m) {
    print_error(&err);
    return exit_code(err.code);
  }
  /* the initial state is an input of the run too: with --from, the spec and
   * its file's bytes join the digest */
  char digest_hex[65];
  simc_input_digest(m, from, digest_hex);
  if (digest) {
    printf("%s\n", digest_hex);
    simc_model_free(m);
    return 0;
  }
  /* said once, here (a warning: also under --quiet); the library never prints */
  say_lines("approximated", simc_model_text(m, SIMC_TEXT_APPROXIMATED));
  /* what the loader changed in the scene as written: with the run's other
   * warnings at its end (and in the output), here for a check */
  if (check) say_lines("warning", simc_model_text(m, SIMC_TEXT_NOTES));
  /* unchecked: an initial state that is already unusable (non-finite,
   * interpenetrating) is recorded below as row 0 of a failed run */
  simc_data* d = simc_data_make_unchecked(m, &err);
  if (!d) {
    print_error(&err);
    simc_model_free(m);
    return exit_code(err.code);
  }
  char from_desc[PATH_MAX + 96] = "";
  if (from) {
    const int fc = load_from(from, m, d, from_desc, (int)sizeof from_desc, quiet);
    if (fc != 0) {
      simc_data_free(d);
      simc_model_free(m);
      return fc;
    }
  }
  long nsteps = step_count(m);
  int every = simc_model_option(m, SIMC_OPTION_OUTPUT_EVERY);
  double est_bytes = ((double)(nsteps / every) + 1) * frame_bytes(m);
  if (nsteps > 0 && max_output > 0 && est_bytes > max_output) {
    fprintf(stderr,
            "simc: %ld steps recorded every %d would write about %.3g bytes (without contact "
            "rows), more than --max-output %.3g bytes; raise output.every, or pass "
            "--max-output (0: no limit)\n",
            nsteps, every, est_bytes, max_output);
    nsteps = -1;
  }
  if (nsteps < 0 || check) {
    if (nsteps > 0)
      fprintf(stderr,
              "%s: ok: %d bodies, %d geoms, nq = %d, nv = %d, %ld steps of %g s, "
              "about %.3g MB of output without contact rows\n",
              scene, simc_count(m, SIMC_BODY) - 1, simc_count(m, SIMC_GEOM),
              simc_count(m, SIMC_QPOS), simc_count(m, SIMC_DOF), nsteps, simc_timestep(m),
              est_bytes / 1e6);
    simc_data_free(d);
    simc_model_free(m);
    return nsteps < 0 ? EXIT_SCENE : 0;
  }

  char out[4096];
  if (out_arg) {
    if (strlen(out_arg) >= sizeof out) {
      fprintf(stderr, "simc: -o: the path is %zu characters long; the limit is %zu\n",
              strlen(out_arg), sizeof out - 1);
      simc_data_free(d);
      simc_model_free(m);
      return EXIT_SCENE;
    }
    snprintf(out, sizeof out, "%s", out_arg);
  } else {
    default_output(scene, out, sizeof out);
  }
  char lockpath[4200];
  int lock_fd = -1, busy = 0;
  int oc = check_output_path(out, scene);
  if (oc == 0) {
    lock_fd = lock_output(out, lockpath, sizeof lockpath, &busy);
    oc = lock_fd >= 0 ? check_output(out, force) : EXIT_IO;
  }
  if (oc != 0) {
    unlock_output(lock_fd, lockpath);
    simc_data_free(d);
    simc_model_free(m);
    return oc;
  }
  /* the command line, for provenance */
  size_t cl_len = 1;
  for (int i = 0; i < argc; i++) cl_len += strlen(argv[i]) + 3;
  char* cmdline = calloc(cl_len, 1);
  for (int i = 0; i < argc && cmdline; i++) {
    if (i) strcat(cmdline, " ");
    strcat(cmdline, argv[i]);
  }
  const simc_record_options ropt = {cmdline ? cmdline : "simc", SC_VERSION,
                                    from_desc[0] ? from_desc : NULL, digest_hex, lock_fd};
  simc_error ferr, oerr;
  const int fst = simc_forward(m, d, &ferr);
  simc_recorder* rec = simc_recorder_open(m, d, out, &ropt, &oerr);
  if (!rec || fst != SIMC_OK) {
    char status0[1100];
    if (fst != SIMC_OK) {
      char buf[1200];
      simc_error_string(&ferr, buf, sizeof buf);
      fprintf(stderr, "simc: simulation failed: %s\n", buf);
      snprintf(status0, sizeof status0, "failed: %s", ferr.msg);
    } else {
      print_error(&oerr);
      snprintf(status0, sizeof status0, "failed: %s", oerr.msg);
    }
    if (rec) simc_recorder_close(rec, m, d, status0, NULL, NULL);
    unlock_output(lock_fd, lockpath);
    free(cmdline);
    simc_data_free(d);
    simc_model_free(m);
    return !rec ? exit_code(oerr.code) : exit_code(ferr.code);
  }

  simc_set_cancel(m, d, &interrupted);

  int progress = !quiet && isatty(2);
  double wall0 = now_seconds(), last_progress = wall0;
  char status[1100] = "";
  int code = 0;
  long k;
  for (k = 0; k < nsteps; k++) {
    if (interrupted) break;
    const int st = simc_step(m, d, 1, &err);
    if (st != SIMC_OK && interrupted) break; /* cancelled mid-step: nothing to record */
    simc_error werr;
    /* the run's figures count every step, a failed one too; its row is
     * written when output.every says so, and a failed step's always */
    int wst = simc_recorder_step(rec, m, d, &werr);
    if (wst == SIMC_OK && st != SIMC_OK && (k + 1) % every != 0)
      wst = simc_recorder_frame(rec, m, d, &werr);
    if (wst != SIMC_OK) {
      print_error(&werr);
      snprintf(status, sizeof status, "failed: %s", werr.msg);
      code = EXIT_IO;
      k++;
      break;
    }
    if (st != SIMC_OK) {
      char buf[1200];
      simc_error_string(&err, buf, sizeof buf);
      fprintf(stderr, "%ssimc: simulation failed: %s\n", progress ? "\n" : "", buf);
      snprintf(status, sizeof status, "failed: %s", err.msg);
      code = exit_code(st);
      k++;
      break;
    }
    double now = now_seconds();
    if (progress && now - last_progress > 0.2) {
      fprintf(stderr, "\r  t = %.4f / %.4f s  (%3.0f%%)  real-time factor %.3g   ", simc_time(d),
              simc_duration(m), 100.0 * (double)(k + 1) / (double)nsteps,
              simc_time(d) / (now - wall0));
      last_progress = now;
    }
  }
  if (interrupted && code == 0) {
    snprintf(status, sizeof status, "interrupted");
    code = 128 + (int)interrupted;
  }
  /* a run that reached its end: the recorder checks its final state (a body
   * that ended inside another fails the run rather than passing as
   * complete) and says "complete", or what a model loaded without part of
   * itself left out */
  const int reached_end = code == 0 && k == nsteps;
  simc_run_summary sum;
  simc_error cerr;
  const int cst = simc_recorder_close(rec, m, d, reached_end ? NULL : status, &sum, &cerr);
  if (reached_end && strncmp(sum.status, "failed: ", 8) == 0) {
    fprintf(stderr, "%ssimc: simulation %s\n", progress ? "\n" : "", sum.status);
    code = EXIT_SIM;
  }
  double wall = now_seconds() - wall0;
  if (progress) fprintf(stderr, "\r%*s\r", 70, "");
  if (cst != SIMC_OK) {
    print_error(&cerr);
    if (code == 0 || code >= 128) code = EXIT_IO;
  }
  unlock_output(lock_fd, lockpath);
  /* warnings are counted during the run and said once, at the end */
  if (simc_warnings(d, SIMC_WARN_CONTACT) && simc_model_option(m, SIMC_OPTION_ON_FAILURE) == 1)
    fprintf(stderr,
            "simc: warning: the %s contact solver did not converge in %d steps "
            "(contact.on_failure: warn kept the last iterate; see /solver/status)\n",
            simc_model_option(m, SIMC_OPTION_SOLVER) == 1 ? "lcp" : "newton",
            simc_warnings(d, SIMC_WARN_CONTACT));
  if (sum.warnings[0]) fprintf(stderr, "simc: warning: %s\n", sum.warnings);
  if (simc_warnings(d, SIMC_WARN_NCON))
    fprintf(stderr,
            "simc: warning: more contacts than the contact buffer holds (%d) in %d steps; the "
            "deepest were kept: raise contact.max_contacts\n",
            simc_model_option(m, SIMC_OPTION_MAX_CONTACTS), simc_warnings(d, SIMC_WARN_NCON));
  if (!quiet) {
    const double scale = fabs(sum.energy_start) > 0 ? fabs(sum.energy_start) : 1.0;
    const double t = simc_time(d);
    char substeps[96] = "";
    if (sum.substeps > 0)
      snprintf(substeps, sizeof substeps, "; error control: %ld substeps, %ld rejected",
               sum.substeps, sum.rejected_substeps);
    fprintf(stderr,
            "simc: %s: %ld steps (t = %.6g s%s) in %.3f s wall, real-time factor %.3g, "
            "mean contacts %.2f, contact iterations median %ld mean %.2f max %d, "
            "max penetration %.3g m (%.2g %% of the smaller body's size), "
            "energy balance error %.3g J (%.2g of |E0|), Coulomb residuals Signorini %.2g J "
            "dissipation %.2g J De Saxce %.2g J%s%s%s -> %s\n",
            sum.status, k, t, substeps, wall, wall > 0 ? t / wall : 0.0, sum.mean_contacts,
            sum.median_iterations, sum.mean_iterations, sum.max_iterations, sum.max_penetration,
            100 * sum.max_penetration_fraction, sum.energy_balance, sum.energy_balance / scale,
            sum.coulomb[0], sum.coulomb[1], sum.coulomb[2],
            simc_warnings(d, SIMC_WARN_CONTACT) ? " [contact solver warnings]" : "",
            sum.penetration_warning ? " [penetration warning]" : "",
            simc_warnings(d, SIMC_WARN_FAST) ? " [fast body warning]" : "", out);
  }
  free(cmdline);
  simc_data_free(d);
  simc_model_free(m);
  return code;
}

int main(int argc, char** argv) {
  simc_blas_single_thread();
  /* a closed stderr or stdout pipe must not kill the run: writes fail with
   * EPIPE, the output file is still closed and the exit code is simc's */
  signal(SIGPIPE, SIG_IGN);
  /* SIGINT / SIGTERM only set a flag, from the start: one that arrives while
   * the scene loads ends the run at its first step with status interrupted
   * (instead of killing the process before the output exists, or being
   * lost when a shell started simc with the signal ignored) */
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  /* and every other signal that would end the process without a word (a
   * dropped ssh session's SIGHUP, SIGUSR1/2, SIGALRM, a CPU-time limit):
   * the run stops at its next step and closes the file valid */
  static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU};
  for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++)
    sigaction(stop_signals[i], &sa, NULL);
  /* overrides: every --set plus the shorthand options, in order */
  const char** sets = calloc((size_t)argc + 1, sizeof *sets);
  char** owned = calloc((size_t)argc + 1, sizeof *owned);
  int nowned = 0, code = EXIT_SIM;
  if (sets && owned) {
    code = run(argc, argv, sets, owned, &nowned);
  } else {
    fprintf(stderr, "simc: out of memory\n");
  }
  for (int i = 0; i < nowned; i++) free(owned[i]);
  free(owned);
  free(sets);
  return code;
}
