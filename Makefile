# odegen — top-level build.
#   make            builds build/odegen (the translator)
#   make test       the whole CPU test suite (no GPU needed)
#   make demo       the Duffing bifurcation diagram, end to end
#   make deps       installs every Debian package of tools/packages (as root, or with sudo)
#   make test-gpu   the GPU suite (run it on a machine with a GPU)
#   make bench      the GPU benchmarks (writes bench/BENCHMARKS.md)
#   make install    PREFIX=DIR: the translator, the man pages, the Python package
# `make test` and `make demo` first install the Debian packages they need that are missing
# (tools/deps.sh: as root, or with a sudo that needs no password; otherwise they print the
# command).  ODEGEN_DEPS=no skips that.

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wshadow -Wstrict-prototypes \
           -Wmissing-prototypes -Wno-unused-parameter -Wno-unused-function
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
FLEX    ?= flex
BISON   ?= bison

# The translator's sources: generator/main.c and one folder per stage of the
# pipeline (generator/README.md); objects mirror them under build/.
B := build
GEN_STAGES := base front check deriv emit
GEN_SRCS := $(sort $(wildcard generator/*.c $(addsuffix /*.c,$(addprefix generator/,$(GEN_STAGES)))))
EMBED_INPUTS := $(sort $(wildcard templates/*.h templates/*.c runtime/*.h runtime/*.c templates/*.mk))
GEN_GENERATED := $(B)/front/lexer.c $(B)/front/parser.c $(B)/emit/embedded.c

.PHONY: all test test-gpu demo bench fuzz clean deps check-tools install uninstall
all: $(B)/odegen

# Tools the build needs, with a clear message instead of "flex: command not found".
check-tools:
	@missing=""; \
	for t in $(FLEX) $(BISON); do command -v $$t >/dev/null 2>&1 || missing="$$missing $$t"; done; \
	if [ -n "$$missing" ]; then \
	  echo "odegen needs:$$missing.  Install with:  sudo apt-get install flex bison   (or: make deps)" >&2; \
	  exit 1; fi

# Every Debian package odegen uses (the list: tools/packages).
deps:
	@bash tools/deps.sh all

# The build folders, one per stage (a stamp of its own name: a build/ from before the stages
# lacks it, so its folders are made).
$(B)/.stages:
	@mkdir -p $(addprefix $(B)/,$(GEN_STAGES)) $(addprefix $(B)/asan/,$(GEN_STAGES)) && touch $@

# Grouped targets (&:): one run of flex or bison makes both files, also under make -j.
# (The tool check runs only when flex or bison is actually needed: a build
# directory carried to a machine without them stays usable.)
$(B)/front/lexer.c $(B)/front/lexer.h &: generator/front/lexer.l | $(B)/.stages
	@$(MAKE) -s check-tools
	$(FLEX) --header-file=$(B)/front/lexer.h -o $(B)/front/lexer.c $<

$(B)/front/parser.c $(B)/front/parser.h &: generator/front/parser.y | $(B)/.stages
	@$(MAKE) -s check-tools
	$(BISON) -Wall -Werror -d -o $(B)/front/parser.c $<

# Templates and runtime are embedded into the translator as C strings.
$(B)/embed: tools/embed.c | $(B)/.stages
	$(CC) $(CFLAGS) $(WARN) -o $@ $<
$(B)/emit/embedded.c: $(B)/embed $(EMBED_INPUTS)
	$(B)/embed $(EMBED_INPUTS) > $@.tmp && mv $@.tmp $@

# Includes name the stage: #include "front/ast.h" (the scanner and the parser
# find each other's generated header beside themselves, in build/front/).
GEN_INC := -Igenerator
# Each object also depends on the headers it includes (build/**/*.d, written
# by the compiler): a changed header rebuilds what reads it.
DEPFLAGS := -MMD -MP
-include $(wildcard $(B)/*.d $(B)/*/*.d $(B)/*/*/*.d)
GEN_HEADERS := $(B)/front/parser.h $(B)/front/lexer.h
$(B)/%.o: generator/%.c $(GEN_HEADERS) | $(B)/.stages
	$(CC) $(CFLAGS) $(WARN) $(GEN_INC) $(DEPFLAGS) -c -o $@ $<
$(B)/front/lexer.o: $(B)/front/lexer.c $(B)/front/parser.h
	$(CC) $(CFLAGS) $(GEN_INC) $(DEPFLAGS) -c -o $@ $<
$(B)/front/parser.o: $(B)/front/parser.c $(B)/front/lexer.h
	$(CC) $(CFLAGS) $(GEN_INC) $(DEPFLAGS) -c -o $@ $<
$(B)/emit/embedded.o: $(B)/emit/embedded.c
	$(CC) $(CFLAGS) $(GEN_INC) $(DEPFLAGS) -c -o $@ $<

GEN_OBJS := $(patsubst generator/%.c,$(B)/%.o,$(GEN_SRCS)) $(GEN_GENERATED:.c=.o)
$(B)/odegen: $(GEN_OBJS)
	$(CC) $(CFLAGS) -o $@ $^ -lm

# The same translator with AddressSanitizer and UBSan, for the tests.
ASAN_OBJS := $(patsubst $(B)/%.o,$(B)/asan/%.o,$(GEN_OBJS))
$(B)/asan/%.o: generator/%.c $(GEN_HEADERS) | $(B)/.stages
	$(CC) -O1 -g $(SANFLAGS) $(WARN) $(GEN_INC) $(DEPFLAGS) -c -o $@ $<
$(B)/asan/%.o: $(B)/%.c $(GEN_HEADERS) | $(B)/.stages
	$(CC) -O1 -g $(SANFLAGS) $(GEN_INC) $(DEPFLAGS) -c -o $@ $<
$(B)/asan/odegen: $(ASAN_OBJS)
	$(CC) $(SANFLAGS) -o $@ $^ -lm
# The translator without main.c, for the tests that call its passes (tests/deriv).
$(B)/asan/translator.a: $(filter-out $(B)/asan/main.o,$(ASAN_OBJS))
	rm -f $@ && ar rcs $@ $^

# Fuzzing (tests/fuzz/README.md): the translator without main.c, under
# libFuzzer with ASan and UBSan; `make fuzz` runs it for FUZZ_SECONDS.  The
# same harness built with gcc replays inputs without libFuzzer.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 300
FUZZ_SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
FUZZ_OBJS    := $(patsubst $(B)/%.o,$(B)/fuzz/%.o,$(filter-out $(B)/main.o,$(GEN_OBJS)))
$(B)/fuzz/.dir:
	@mkdir -p $(addprefix $(B)/fuzz/,$(GEN_STAGES)) && touch $@
$(B)/fuzz/%.o: generator/%.c $(GEN_HEADERS) | $(B)/fuzz/.dir
	$(FUZZ_CC) -O1 -g -fsanitize=fuzzer-no-link $(FUZZ_SAN) $(GEN_INC) $(DEPFLAGS) -c -o $@ $<
$(B)/fuzz/%.o: $(B)/%.c $(GEN_HEADERS) | $(B)/fuzz/.dir
	$(FUZZ_CC) -O1 -g -fsanitize=fuzzer-no-link $(FUZZ_SAN) $(GEN_INC) $(DEPFLAGS) -c -o $@ $<
$(B)/fuzz/fuzz_translator: tests/fuzz/fuzz_translator.c $(FUZZ_OBJS)
	$(FUZZ_CC) -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) $(GEN_INC) -o $@ $^ -lm
$(B)/asan/fuzz_replay: tests/fuzz/fuzz_translator.c $(filter-out $(B)/asan/main.o,$(ASAN_OBJS))
	$(CC) -O1 -g $(SANFLAGS) -DFUZZ_REPLAY_MAIN $(GEN_INC) -o $@ $^ -lm

fuzz: $(B)/fuzz/fuzz_translator
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash tests/fuzz/fuzz.sh

# The CPU suite: parser, generator, error messages, runtime, numerics, XPPAUT
# compatibility, a short fuzzing run.  Sanitizers on all host code.
test:
	@bash tools/deps.sh test
	@$(MAKE) --no-print-directory $(B)/odegen $(B)/asan/odegen $(B)/asan/translator.a
	bash tests/run_all.sh

# The Duffing bifurcation diagram, end to end (examples/demo.sh): on a GPU the
# paper's scan, on the CPU a smaller one; writes build/demo/duffing.{csv,png}
# (without gnuplot the CSV, and how to draw it).
demo:
	@bash tools/deps.sh demo
	@$(MAKE) --no-print-directory $(B)/odegen
	bash examples/demo.sh

# The GPU suite (run it on a machine with a GPU): tests/gpu/run.sh
test-gpu: $(B)/odegen
	bash tests/gpu/run.sh $(GPU_STEPS)

# The GPU benchmarks (more than 10 minutes on an H200 with every part): bench/run.sh writes
# bench/BENCHMARKS.md (builds and logs in bench/out).
bench: $(B)/odegen
	bash bench/run.sh

# make install PREFIX=DIR (default /usr/local): the translator (DIR/bin/odegen: the templates
# are inside it), the man pages odegen(1) and odegen-runner(1) (DIR/share/man/man1), and the
# Python package (pip install --prefix DIR ./python, where Debian's python3 has pip: DIR/lib/
# python3/dist-packages, DIR/bin/odegen being the translator itself; PYTHON=no leaves it out).  make uninstall PREFIX=DIR removes what install put there.
PREFIX ?= /usr/local
PYTHON ?= /usr/bin/python3
MAN_PAGES := docs/man/odegen.1 docs/man/odegen-runner.1
install: $(B)/odegen
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	@if [ "$(PYTHON)" != no ] && $(PYTHON) -m pip --version >/dev/null 2>&1; then \
	  echo "$(PYTHON) -m pip install --prefix $(DESTDIR)$(PREFIX) ./python"; \
	  DEB_PYTHON_INSTALL_LAYOUT=deb_system $(PYTHON) -m pip install -q --no-deps --no-build-isolation --no-index --ignore-installed \
	    --no-warn-script-location --prefix $(DESTDIR)$(PREFIX) ./python || exit 1; \
	elif [ "$(PYTHON)" != no ]; then \
	  echo "make install: no pip for $(PYTHON): the Python package is not installed (apt-get install python3-pip)"; \
	fi
	install -m 755 $(B)/odegen $(DESTDIR)$(PREFIX)/bin/odegen
	install -m 644 $(MAN_PAGES) $(DESTDIR)$(PREFIX)/share/man/man1/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/odegen $(addprefix $(DESTDIR)$(PREFIX)/share/man/man1/,$(notdir $(MAN_PAGES)))
	find $(DESTDIR)$(PREFIX) -depth \( -path '*-packages/odegen' -o -path '*-packages/odegen-*.dist-info' \) \
	  -exec rm -rf {} +
	-find $(DESTDIR)$(PREFIX) -depth -type d -empty -delete 2>/dev/null

clean:
	rm -rf $(B)
