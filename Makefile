# flashbench — see README. `make`, `make check`, `make check-asan`, `make install`.
VERSION := 2.0

CC      ?= cc
CPPFLAGS ?=
CFLAGS  ?= -O2 -g
override CPPFLAGS += -I.
# -ffp-contract=off: -i's fit is the original's single-precision arithmetic, never fused.
override CFLAGS += -std=gnu11 -Wall -Wextra -D_GNU_SOURCE -DFB_VERSION='"$(VERSION)"' -ffp-contract=off
LDFLAGS ?=
LDLIBS  ?= -lm -pthread

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
DATADIR ?= $(PREFIX)/share/flashbench
DESTDIR ?=

# Objects go to $(B); `make check-asan` uses another B so the two never mix.
B ?= build
BIN := $(if $(filter build,$(B)),flashbench,$(B)/flashbench)

# The user's files at the top, every other concern in a folder (README: the map).
DIRS      := lib results backends sim measure analyze identity safety report auto checks cmd
LIB_SRCS  := $(filter-out flashbench.c,$(wildcard *.c)) $(foreach d,$(DIRS),$(wildcard $(d)/*.c))
LIB_OBJS  := $(LIB_SRCS:%.c=$(B)/%.o)
UNIT_SRCS := $(wildcard tests/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/%.c=$(B)/tests/%)

all: $(BIN)

$(BIN): $(B)/flashbench.o $(B)/libfb.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/libfb.a: $(LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(B)/tests/%: tests/%.c tests/unit.h tests/pyeval.h $(B)/libfb.a | $(B)/tests
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(B)/libfb.a $(LDLIBS)

# The virtual clock of the tests of what shows over time (tests/vclock.c),
# preloaded: built plain, never instrumented (a preloaded sanitizer would clash).
$(B)/tests/vclock.so: tests/vclock.c | $(B)/tests
	$(CC) -shared -fPIC -O2 -std=gnu11 -o $@ $< -ldl -pthread

# The tests' random images (tests/random_bytes.c, tests/lib.sh): plain, never instrumented.
$(B)/tests/random_bytes: tests/random_bytes.c | $(B)/tests
	$(CC) -O2 -std=gnu11 -Wall -Wextra -o $@ $<

$(B) $(B)/tests:
	mkdir -p $@

check: $(BIN) $(UNIT_BINS) $(B)/tests/vclock.so $(B)/tests/random_bytes
	FLASHBENCH=$(abspath $(BIN)) UNIT_DIR=$(abspath $(B)/tests) tests/run.sh

ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
check-asan:
	$(MAKE) B=build-asan CFLAGS="$(ASAN_FLAGS)" LDFLAGS="-fsanitize=address,undefined" check

bench: $(BIN)
	FLASHBENCH=$(abspath $(BIN)) bench/run.sh

# The mutation score (bench/mutate.sh): MUTANTS=ci for the handful CI runs,
# or mutant names; default all. Works on a copy of the tree.
MUTANTS ?= all
mutate:
	bench/mutate.sh $(MUTANTS)

FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_SECONDS ?= 60
FUZZ_SAN := address,undefined
# The library is built once, instrumented, as an archive: each target links
# only what it uses. Crash inputs land in build-fuzz/<target>-crash-*.
fuzz:
	$(MAKE) B=build-fuzz CC=clang CFLAGS="-g -O1 -fsanitize=fuzzer-no-link,$(FUZZ_SAN)" build-fuzz/libfb.a
	@set -e; for t in $(FUZZ_TARGETS); do \
	  clang -std=gnu11 -D_GNU_SOURCE -g -O1 -I. -fsanitize=fuzzer,$(FUZZ_SAN) \
	    -o build-fuzz/$$t tests/fuzz/$$t.c build-fuzz/libfb.a $(LDLIBS); \
	  mkdir -p build-fuzz/corpus-$$t; \
	  build-fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=build-fuzz/$$t- \
	    build-fuzz/corpus-$$t tests/fuzz/corpus-$$t; \
	done

install: $(BIN)
	install -D -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/flashbench
	install -D -m 0644 flashbench.1 $(DESTDIR)$(MANDIR)/man1/flashbench.1
	install -D -m 0644 completion/flashbench $(DESTDIR)$(COMPLETIONDIR)/flashbench
	install -D -m 0644 doc/flashbench.schema.json $(DESTDIR)$(DATADIR)/flashbench.schema.json

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/flashbench $(DESTDIR)$(MANDIR)/man1/flashbench.1 \
	      $(DESTDIR)$(COMPLETIONDIR)/flashbench $(DESTDIR)$(DATADIR)/flashbench.schema.json

clean:
	rm -rf build build-asan build-fuzz flashbench

.PHONY: all check check-asan bench mutate fuzz install uninstall clean

-include $(wildcard $(B)/*.d $(B)/*/*.d)
