# simc — build, run, test, bench.  `make help` lists the targets.
#
# System packages (Debian): the build checks for them and installs them when
# run as root, otherwise it stops and prints the exact apt-get command.

CC      ?= cc
# GCC's -O2 vectorizes only loops that need no epilogue; its dynamic cost
# model also takes the short loops over a body's 6 dofs and a panel's rows
# (Cholesky panels, kinematics, the contact Jacobian products): about 5 %
# fewer instructions per step on clutter piles.  Vectorized loops do the
# same IEEE operations per element (no reassociation without -ffast-math),
# so outputs stay bit-identical.  Only where the compiler takes the flag.
VECT    := $(shell $(CC) -fvect-cost-model=dynamic -Werror -x c -c /dev/null -o /dev/null \
             2>/dev/null && echo -fvect-cost-model=dynamic)

BUILD   ?= release
ifeq ($(BUILD),debug)
  OPT      := -O0 -g -fsanitize=address,undefined -fno-omit-frame-pointer
  LDOPT    := -fsanitize=address,undefined
  OUT      := build/debug
  BIN      := build/debug/bin
else
  OPT      := -O2 -g -DNDEBUG $(VECT)
  LDOPT    :=
  OUT      := build/release
  BIN      := bin
endif

PKGS    := yaml-0.1 lapacke hdf5 ccd qhull_r libxml-2.0 assimp
DEB_PKGS := build-essential pkg-config libyaml-dev liblapacke-dev libopenblas-dev libccd-dev libqhull-dev libxml2-dev \
            libhdf5-dev hdf5-tools parallel python3 python3-numpy python3-h5py python3-matplotlib \
            libsuitesparse-dev libjs-three libassimp-dev
# the replay viewer's browser tests (make test) drive headless Chromium
TEST_DEB_PKGS := chromium python3-websocket python3-pil ffmpeg libmujoco-samples libmujoco-dev strace dart-doc valgrind python3-pytest
TEST_STAMP := build/.test-deps-ok
# make bench's peers: MuJoCo 2.2.2 and its models, ODE, GNU time for peak
# memory; and node with npm for MuJoCo 3.x's WebAssembly build
# (tools/bench/mujoco_js), from Debian unless a node with npm is there already
BENCH_DEB_PKGS := libmujoco-samples libmujoco-dev libode-dev time \
                  $(if $(shell command -v node && command -v npm),,nodejs npm)
BENCH_STAMP := build/.bench-deps-ok
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# assimp is loaded when a mesh needs it (src/mesh/mesh_read.c): its headers
# only, and the name of the library to load
PKG_LIBS   = $(shell pkg-config --libs $(filter-out assimp,$(PKGS)) 2>/dev/null)
ASSIMP_SONAME = $(shell objdump -p $$(pkg-config --variable=libdir assimp 2>/dev/null)/libassimp.so 2>/dev/null | awk '/SONAME/ { print $$2 }')
WARN    := -Wall -Wextra -Werror -Wpedantic -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wdouble-promotion -Wundef -Wno-unused-function
CFLAGS  ?=
CFLAGS  += -std=c11 -pthread -D_POSIX_C_SOURCE=200809L $(OPT) $(WARN) -Iinclude -Isrc $(PKG_CFLAGS) -MMD -MP
# LAPACK and BLAS first: the dynamic loader searches the libraries in this
# order for every symbol, and OpenBLAS's own references are a third of all
# (about 12 000 at each start; 8 M fewer instructions of loading this way)
LDLIBS   = -llapack -lblas $(PKG_LIBS) -lcholmod -lsuitesparseconfig -lm -pthread
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
CFLAGS  += -DSC_VERSION='"$(VERSION)"'

LIB_SRC  := $(filter-out src/cli/%,$(wildcard src/*/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(OUT)/%.o)
LIB      := $(OUT)/libsimc.a
# the shared library (below), its name from include/simc.h's version
SO_NAME  := libsimc.so.$(shell sed -n 's/^\#define SIMC_VERSION_MAJOR //p' include/simc.h)
SO_FULL  := $(SO_NAME).$(shell sed -n 's/^\#define SIMC_VERSION_MINOR //p' include/simc.h)
SO       := $(OUT)/$(SO_FULL)
TOOL_SRC := $(wildcard tools/*.c)
TOOLS    := $(TOOL_SRC:tools/%.c=$(BIN)/%)
# the project's own measuring programs (tools/bench/*.c): built, not installed
BENCH_SRC   := $(wildcard tools/bench/*.c)
BENCH_TOOLS := $(BENCH_SRC:tools/bench/%.c=$(BIN)/%)
TEST_SRC := $(wildcard test/test_*.c)
TESTS    := $(TEST_SRC:test/%.c=$(BIN)/%)
STAMP    := build/.deps-ok

.SECONDARY:
.PHONY: FORCE valgrind all lib run test doc debug bench results install uninstall clean help deps check golden test-portability fuzz fuzz-build test-cluster validate test-fresh test-models
all: $(BIN)/simc $(TOOLS) $(BENCH_TOOLS) $(SO)

help:
	@echo "make            build bin/simc and tools"
	@echo "make run        build and run the default scene (scenes/default.yaml)"
	@echo "make test       build and run every test (ends with 'N passed, N failed')"
	@echo "make doc        print the scene key reference into doc/scenes.md (src/scene/keys.c)"
	@echo "make debug      the tests under AddressSanitizer + UBSan"
	@echo "make test-portability  golden runs under other CPUs' BLAS kernels and 1/2 threads"
	@echo "make test-models  real MJCF and URDF files (MuJoCo's samples, DART's) against MuJoCo -> results/model_corpus.md"
	@echo "make test-cluster  sweeps through a local Slurm cluster and sshd started by the test (root)"
	@echo "make valgrind   the test programs and a contact run under valgrind memcheck"
	@echo "make validate   the validation matrix (analytic cases x configurations) -> results/validation.md"
	@echo "make bench      benchmarks -> results/bench.md"
	@echo "make golden     regenerate the golden regression files (shows the changes)"
	@echo "make fuzz       fuzz the scene loader, --set, the XML and mesh readers, command tables and --from (libFuzzer, ASan+UBSan), FUZZ_TIME s per target"
	@echo "make install PREFIX=/usr/local  the user's tools (DESTDIR too); make uninstall removes them"

# ---- system packages ----
# install_pkgs(LIST): the missing Debian packages of LIST, as root; otherwise
# print the apt-get line and fail.  Another apt or dpkg holding its lock (an
# unattended upgrade) is waited for, up to 10 minutes, instead of failing.
define install_pkgs
	@missing=""; \
	for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing system packages:$$missing"; \
	    for try in $$(seq 60); do \
	      log=$$( (apt-get -o DPkg::Lock::Timeout=600 update -qq && \
	               DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
	                 install -y -qq $$missing) 2>&1 ) && break; \
	      case "$$log" in \
	        *"Could not get lock"*|*"is held by process"*|*"Unable to lock"*) \
	          echo "another package manager holds the dpkg or apt lock; waiting ($$try of 60, 10 s each)"; \
	          sleep 10;; \
	        *) printf '%s\n' "$$log" | tail -5; echo "apt-get install failed"; exit 1;; \
	      esac; \
	      [ $$try = 60 ] && { echo "apt-get install failed: the lock was held for 10 minutes"; exit 1; }; \
	    done; \
	  else \
	    echo "missing system packages; run:"; \
	    echo "  sudo apt-get install -y$$missing"; exit 1; \
	  fi; \
	fi
endef

deps: $(STAMP)
# (rechecked when the Makefile changes: a package added to the list installs)
$(STAMP): Makefile
	$(call install_pkgs,$(DEB_PKGS))
	@mkdir -p build && touch $@
$(TEST_STAMP): Makefile | $(STAMP)
	$(call install_pkgs,$(TEST_DEB_PKGS))
	@touch $@
$(BENCH_STAMP): Makefile | $(STAMP)
	$(call install_pkgs,$(BENCH_DEB_PKGS))
	@touch $@

# ---- build ----
# Objects are rebuilt when the compiler command changes (other flags, another
# compiler), which their sources' timestamps cannot tell; main.o also when the
# version it prints and records in every output changes.  Each file is
# rewritten only when its content differs, so an unchanged build stays done.
# The flags are read after `make deps` has run (order-only on its stamp):
# pkg-config's flags are empty before the packages are installed, and a
# list taken then would differ from the next make's and rebuild everything.
BUILD_FLAGS = $(CC) $(filter-out -DSC_VERSION=%,$(CFLAGS)) -fPIC -fvisibility=hidden
$(OUT)/.flags: FORCE | $(STAMP)
	@mkdir -p $(OUT)
	@printf '%s\n' '$(BUILD_FLAGS)' | cmp -s - $@ || printf '%s\n' '$(BUILD_FLAGS)' >$@
$(OUT)/.version: FORCE
	@mkdir -p $(OUT)
	@printf '%s\n' '$(VERSION)' | cmp -s - $@ || printf '%s\n' '$(VERSION)' >$@
$(OUT)/src/cli/main.o: $(OUT)/.version
FORCE:

$(OUT)/%.o: %.c $(OUT)/.flags | $(STAMP)
	@mkdir -p $(dir $@)
	@echo "CC $<"
	@$(CC) $(CFLAGS) $(LIB_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	@ar rcs $@ $^

# The library's objects are compiled once, position-independent and with
# hidden visibility, for both libraries: the shared one exports only
# include/simc.h's SIMC_API functions, the static one (linked into the CLI,
# the tools and the tests, where visibility plays no part) keeps every
# symbol.  Hidden symbols cannot be interposed, so the code is what a
# non-PIC build makes (the goldens and reference scenes bit for bit).
$(LIB_OBJ): LIB_CFLAGS := -fPIC -fvisibility=hidden
$(OUT)/src/mesh/mesh_read.o: LIB_CFLAGS += $(if $(ASSIMP_SONAME),-DSC_ASSIMP_SONAME='"$(ASSIMP_SONAME)"')
$(SO): $(LIB_OBJ)
	@echo "LD $@"
	@$(CC) $(LDOPT) -shared -Wl,-soname,$(SO_NAME) -Wl,-z,defs -o $@ $^ $(LDLIBS)
lib: $(SO)

$(BIN)/simc: $(OUT)/src/cli/main.o $(LIB)
	@mkdir -p $(BIN)
	@echo "LD $@"
	@$(CC) $(LDOPT) -o $@ $^ $(LDLIBS)

$(BIN)/%: $(OUT)/tools/%.o $(LIB)
	@mkdir -p $(BIN)
	@echo "LD $@"
	@$(CC) $(LDOPT) -o $@ $^ $(LDLIBS)

$(BENCH_TOOLS): $(BIN)/%: $(OUT)/tools/bench/%.o $(LIB)
	@mkdir -p $(BIN)
	@echo "LD $@"
	@$(CC) $(LDOPT) -o $@ $^ $(LDLIBS)

$(BIN)/test_%: $(OUT)/test/test_%.o $(LIB)
	@mkdir -p $(BIN)
	@echo "LD $@"
	@$(CC) $(LDOPT) -o $@ $^ $(LDLIBS)

# the MJCF tests compare with MuJoCo itself (Debian libmujoco-dev, a test
# package): its headers and library come with the test packages
$(OUT)/test/test_mjcf.o: | $(TEST_STAMP)
$(BIN)/test_mjcf: LDLIBS += -lmujoco
$(OUT)/test/test_mjcf_contact.o: | $(TEST_STAMP)
$(BIN)/test_mjcf_contact: LDLIBS += -lmujoco

# ---- use ----
run: $(BIN)/simc
	@mkdir -p out
	$(BIN)/simc scenes/default.yaml -o out/default.h5
	@/usr/bin/python3 tools/simc-view out/default.h5 -o out/default.html >/dev/null
	@echo "output: out/default.h5  (look at it: h5dump -H out/default.h5, or"
	@echo "        /usr/bin/python3 tools/plot.py out/default.h5 -o out/default.png)"
	@echo "replay: out/default.html  (open it in a browser: file://$(CURDIR)/out/default.html)"

# doc/scenes.md's key reference, printed from the loader's key table
# (src/scene/keys.c); test_scene_keys fails until this has been run
doc: $(BIN)/test_scene_keys
	$(BIN)/test_scene_keys --write doc/scenes.md

test: $(BIN)/simc $(TOOLS) $(TESTS) $(SO) | $(TEST_STAMP)
	@BIN=$(BIN) test/run_tests.sh

debug:
	@$(MAKE) --no-print-directory BUILD=debug test

# the golden runs under other CPUs' OpenBLAS kernels and 1/2 threads
test-portability: $(BIN)/simc $(TOOLS)
	@BIN=$(BIN) tools/dev/portability.sh

# simc on real model files from Debian packages (MuJoCo's samples, DART's MJCF
# and URDF): loads, runs, URDF on a floor, and the MJCF against MuJoCo 2.2.2
# itself (bin/model_compare) -> results/model_corpus.md; fails when a check
# that test/corpus/must_pass.txt lists no longer passes (under a minute)
MODELS_DEB_PKGS := libmujoco-samples libmujoco-dev dart-doc liburdfdom-tools
MODELS_STAMP    := build/.models-deps-ok
$(MODELS_STAMP): Makefile | $(STAMP)
	$(call install_pkgs,$(MODELS_DEB_PKGS))
	@touch $@
$(OUT)/test/corpus/model_compare.o: | $(MODELS_STAMP)
$(BIN)/model_compare: $(OUT)/test/corpus/model_compare.o $(LIB)
	@mkdir -p $(BIN)
	@echo "LD $@"
	@$(CC) $(LDOPT) -o $@ $^ $(LDLIBS) -lmujoco

test-models: $(BIN)/simc $(BIN)/model_compare | $(MODELS_STAMP)
	@/usr/bin/python3 tools/dev/model_corpus.py --simc $(BIN)/simc --compare $(BIN)/model_compare \
	  --out results/model_corpus.md

# the README's `make run` and `make test` in a minimal Debian root built by
# debootstrap from this machine's mirror (as root; several minutes): proves
# that the project's own files install everything a build or test uses
test-fresh:
	@tools/dev/test_fresh.sh

# sweeps through a single-node Slurm cluster and an sshd that the tests start
# on 127.0.0.1 (test/cluster/); the daemons' packages are needed only here
CLUSTER_DEB_PKGS := slurm-wlm munge openssh-server openssh-client
CLUSTER_STAMP    := build/.cluster-deps-ok
$(CLUSTER_STAMP): | $(STAMP)
	$(call install_pkgs,$(CLUSTER_DEB_PKGS))
	@touch $@

test-cluster: $(BIN)/simc $(CLUSTER_STAMP)
	@pass=0; fail=0; skip=0; for t in test/cluster/t_*.sh; do \
	  BIN=$(BIN) timeout 600 bash $$t >build/cluster.log 2>&1; rc=$$?; \
	  p=$$(grep -c '^PASS ' build/cluster.log); f=$$(grep -c '^FAIL ' build/cluster.log); \
	  s=$$(grep -c '^SKIP ' build/cluster.log); \
	  if [ $$rc != 0 ] && [ $$f = 0 ]; then echo "FAIL $$t (exit $$rc)" >>build/cluster.log; f=1; fi; \
	  grep -v '^PASS ' build/cluster.log | sed "s|^|$$t: |"; \
	  echo "--- $$t: $$p passed, $$f failed$$([ $$s = 0 ] || echo ', skipped')"; \
	  pass=$$((pass + p)); fail=$$((fail + f)); skip=$$((skip + s)); \
	done; echo "cluster: $$pass passed, $$fail failed, $$skip skipped"; [ $$fail = 0 ]

# every test program and a contact run under valgrind memcheck (leaks of
# kind "definite"; CHOLMOD's OpenMP pool leaves "possibly lost" thread
# stacks at exit, which are the runtime's, not simc's)
valgrind: $(BIN)/simc $(TESTS)
	@fail=0; for t in $(TESTS); do \
	  SC_SLOW=50 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite \
	    --child-silent-after-fork=yes \
	    $$t >build/valgrind.log 2>&1 && echo "PASS valgrind $$t" || { echo "FAIL valgrind $$t"; \
	    grep -v '^PASS' build/valgrind.log | head -20; fail=1; }; done; \
	valgrind -q --error-exitcode=9 --leak-check=full $(BIN)/simc scenes/clutter8.yaml \
	  -o build/valgrind.h5 --duration 0.05 --quiet && echo "PASS valgrind simc" \
	  || { echo "FAIL valgrind simc"; fail=1; }; exit $$fail

check:
	@tools/dev/check_includes.sh

golden: $(BIN)/simc $(TOOLS)
	@BIN=$(BIN) tools/dev/regen_golden.sh

# the validation matrix: analytic cases x every scheme, contact model,
# stiffness and step (about 3 min on 2 cores) -> results/validation.md;
# fails when a cell of simc's defaults fails; then its accuracy axis (a
# report, not a gate) -> results/validation_accuracy.md, and again with
# near-rigid contacts regularized for 1 ms -> results/validation_accuracy_reg1ms.md
validate: $(BIN)/simc $(TOOLS) $(BIN)/test_momentum
	@/usr/bin/python3 tools/results/validate.py --simc $(BIN)/simc --out build/validate \
	  --report results/validation.md
	@echo "the accuracy axis (simc's defaults under error control, 1e-2 ... 1e-6):"
	@/usr/bin/python3 tools/results/validate.py --simc $(BIN)/simc --out build/validate_accuracy \
	  --accuracy-axis --report results/validation_accuracy.md
	@echo "the same with rigid contacts regularized for 1 ms (contact.regularization_step):"
	@/usr/bin/python3 tools/results/validate.py --simc $(BIN)/simc --out build/validate_accuracy_reg \
	  --accuracy-axis --set contact.regularization_step=1e-3 \
	  --report results/validation_accuracy_reg1ms.md
	@echo "property tests over 200 random free bodies (make test runs 12):"
	@SIMC_PROPERTY_N=200 $(BIN)/test_momentum

bench: $(BIN)/simc $(TOOLS) $(BENCH_TOOLS) $(SO) | $(BENCH_STAMP)
	@BIN=$(BIN) tools/bench/bench.sh

results: $(BIN)/simc $(TOOLS)
	@BIN=$(BIN) tools/results/make_results.sh

# The user's tools (tools/, not its bench/, results/ and dev/ folders): the
# programs and entry scripts in $(PREFIX)/bin, the Python module the scripts
# share and the viewer's page template in $(PREFIX)/share/simc, where the
# scripts look for them (../share/simc from their own resolved path; beside
# them in tools/).  sweep imports h5summary.py from its own folder.
PREFIX ?= /usr/local
USER_SCRIPTS := sweep simc-view plot.py h5summary.py state_at.py compare_report.py sap_trace.py \
                gen_clutter.sh gen_chain.sh
USER_SHARE   := simc_h5.py simc_view_page.html
install: $(BIN)/simc $(TOOLS) $(SO)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/simc
	install -m 755 $(BIN)/simc $(TOOLS) $(USER_SCRIPTS:%=tools/%) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(USER_SHARE:%=tools/%) $(DESTDIR)$(PREFIX)/share/simc/
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include
	install -m 755 $(SO) $(DESTDIR)$(PREFIX)/lib/
	ln -sf $(SO_FULL) $(DESTDIR)$(PREFIX)/lib/$(SO_NAME)
	ln -sf $(SO_NAME) $(DESTDIR)$(PREFIX)/lib/libsimc.so
	install -m 644 include/simc.h $(DESTDIR)$(PREFIX)/include/
	install -d $(DESTDIR)$(PREFIX)/lib/python3/dist-packages/simc
	install -m 644 python/simc/__init__.py $(DESTDIR)$(PREFIX)/lib/python3/dist-packages/simc/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(SO_FULL:libsimc.so.%=%)|' tools/simc.pc.in \
	  >$(DESTDIR)$(PREFIX)/lib/pkgconfig/simc.pc

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/bin/,simc $(notdir $(TOOLS)) $(USER_SCRIPTS))
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/lib/,$(SO_FULL) $(SO_NAME) libsimc.so pkgconfig/simc.pc)
	rm -f $(DESTDIR)$(PREFIX)/include/simc.h
	rm -rf $(DESTDIR)$(PREFIX)/lib/python3/dist-packages/simc
	rm -rf $(addprefix $(DESTDIR)$(PREFIX)/share/simc/,$(USER_SHARE) __pycache__)
	@rmdir $(DESTDIR)$(PREFIX)/share/simc 2>/dev/null || true

# ---- fuzzing (clang's libFuzzer; only this target needs clang) ----
# (warnings are errors in the gcc build; clang only reports them here)
# Each target runs FUZZ_TIME seconds under ASan+UBSan+LeakSanitizer, starting
# from the committed seeds in test/fuzz/corpus/<target> (the inputs it finds
# go to build/fuzz/corpus/<target>); a crash, leak, UB, a broken contract
# (see test/fuzz/targets.h) or an input slower than FUZZ_TIMEOUT s stops it
# with the input in build/fuzz/artifacts/: copy it to test/fuzz/crashes/<target>/
# so that test_fuzz_replay keeps it as a regression test.
FUZZ_DEB_PKGS := clang libclang-rt-14-dev
FUZZ_CC      ?= clang
FUZZ_TIME    ?= 60
FUZZ_TIMEOUT ?= 2
FUZZ_TARGETS := scene set xml mesh csv from
FUZZ_OUT     := build/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS   = -std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
                $(filter-out -Werror -Wdouble-promotion,$(WARN)) -Iinclude -Isrc -Itest $(PKG_CFLAGS) -DSC_VERSION='"$(VERSION)"' -MMD -MP
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ_OUT)/%.o)
FUZZ_STAMP   := build/.fuzz-deps-ok

$(FUZZ_STAMP): | $(STAMP)
	$(call install_pkgs,$(FUZZ_DEB_PKGS))
	@touch $@

$(FUZZ_OUT)/%.o: %.c | $(FUZZ_STAMP)
	@mkdir -p $(dir $@)
	@echo "CC(fuzz) $<"
	@$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

$(FUZZ_OUT)/libsimc.a: $(FUZZ_LIB_OBJ)
	@rm -f $@
	@ar rcs $@ $^

$(FUZZ_OUT)/fuzz_%: $(FUZZ_OUT)/test/fuzz/fuzz_%.o $(FUZZ_OUT)/libsimc.a
	@echo "LD $@"
	@$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

fuzz-build: $(FUZZ_TARGETS:%=$(FUZZ_OUT)/fuzz_%)

fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_OUT)/corpus/$$t $(FUZZ_OUT)/artifacts; \
	  echo "fuzz_$$t: $(FUZZ_TIME) s"; \
	  OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 $(FUZZ_OUT)/fuzz_$$t -max_total_time=$(FUZZ_TIME) \
	    -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=2048 -max_len=$$(case $$t in set|csv) echo 2048;; mesh|from) echo 8192;; *) echo 32768;; esac) \
	    -dict=test/fuzz/$$t.dict -artifact_prefix=$(FUZZ_OUT)/artifacts/$$t- -print_final_stats=1 \
	    $(FUZZ_OUT)/corpus/$$t test/fuzz/corpus/$$t >$(FUZZ_OUT)/$$t.log 2>&1; rc=$$?; \
	  grep -E '^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::peak_rss_mb)' $(FUZZ_OUT)/$$t.log; \
	  if [ $$rc != 0 ]; then echo "fuzz_$$t failed (exit $$rc); see $(FUZZ_OUT)/$$t.log:"; \
	    grep -E 'ERROR|SUMMARY|violated|Test unit written' $(FUZZ_OUT)/$$t.log | head; exit 1; fi; \
	done

clean:
	rm -rf build bin out

-include $(shell find build -name '*.d' 2>/dev/null)
