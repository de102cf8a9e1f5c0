# SPDX-License-Identifier: GPL-2.0-or-later
# pmtools: one entry point for building, testing, linting and installing.

VERSION   := 0.1.0
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
SBINDIR   ?= $(PREFIX)/sbin
DATADIR   ?= $(PREFIX)/share/pmtools
MANDIR    ?= $(PREFIX)/share/man
COMPDIR   ?= $(PREFIX)/share/bash-completion/completions
DESTDIR   ?=

CC        ?= cc
CFLAGS    ?= -O2 -g
WARN      := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wstrict-prototypes \
             -Wmissing-prototypes -Wno-format-nonliteral
HARDEN    := -D_FORTIFY_SOURCE=2 -fstack-protector-strong
PM_CFLAGS := -std=gnu11 -D_GNU_SOURCE $(WARN) -Ilib \
             -DPM_DATADIR='"$(DATADIR)"' -MMD -MP

# Build variants live in their own folders (DESIGN.md).
ifeq ($(SANITIZE),1)
  B         := build/asan
  VARIANT   := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
               -fno-sanitize-recover=all
  VLDFLAGS  := -fsanitize=address,undefined
  HARDEN    := -fstack-protector-strong
else ifeq ($(STATIC),1)
  B         := build/static
  VARIANT   :=
  VLDFLAGS  := -static
else
  B         := build
  VARIANT   :=
  VLDFLAGS  :=
endif

ALL_CFLAGS  = $(PM_CFLAGS) $(HARDEN) $(CFLAGS) $(VARIANT)
ALL_LDFLAGS = $(LDFLAGS) $(VLDFLAGS)
LDLIBS     += -lm

TOOLS     := pmctl pm-suspend opp-set cstate-stat
LIB_SRC   := $(wildcard lib/*.c)
LIB_OBJ   := $(patsubst lib/%.c,$(B)/lib/%.o,$(LIB_SRC))
LIBPM     := $(B)/libpm.a
BINS      := $(addprefix $(B)/,$(TOOLS))
UNIT_SRC  := $(wildcard tests/unit/test_*.c)
UNIT_BIN  := $(patsubst tests/unit/%.c,$(B)/unit/%,$(UNIT_SRC))
MAN       := $(wildcard man/*.[578])
SHELL_FILES = $(shell git ls-files 2>/dev/null | \
                grep -E '(\.sh|\.bash|\.bats)$$|^scripts/|^bench/|^\.ci/run$$|^tests/fixtures/mkfixture$$|^tests/run$$|^tests/pmutils/record$$|^tests/fuzz/(run|mkcorpus)$$|^tests/fault/signal-loop$$|^tests/e2e/(run|init)$$' | \
                grep -vE '\.(md|conf|desc|cron|[578])$$|^bench/results/')

.PHONY: all check check-unit check-cli check-all check-signals check-e2e fuzz unit-tests bench deps lint lint-shellcheck \
        lint-mandoc lint-cppcheck lint-clang-tidy install uninstall clean distclean soak

all: $(LIBPM) $(BINS)

$(B)/lib/%.o: lib/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(B)/cmd/%.o: cmd/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIBPM): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# Each binary: the objects of its own folder over libpm.
define tool_rule
$(1)_OBJ := $$(patsubst cmd/%.c,$(B)/cmd/%.o,$$(wildcard cmd/$(1)/*.c))
$(B)/$(1): $$($(1)_OBJ) $(LIBPM)
	$$(CC) $$(ALL_LDFLAGS) -o $$@ $$^ $$(LDLIBS)
endef
$(foreach t,$(TOOLS),$(eval $(call tool_rule,$(t))))

$(B)/unit/%: tests/unit/%.c tests/unit/tap.h $(LIBPM)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Itests/unit $(ALL_LDFLAGS) -o $@ $< $(LIBPM) $(LDLIBS)

# Every suite, one summary line.  SANITIZE=1 runs them on build/asan.
# The fault shim of tests/fault (LD_PRELOAD; not with ASan or static).
FAULT_SO := build/fault.so
$(FAULT_SO): tests/fault/fault.c
	@mkdir -p $(@D)
	$(CC) $(PM_CFLAGS) $(CFLAGS) -fPIC -shared -o $@ $< -ldl

check: all $(UNIT_BIN) $(FAULT_SO)
	@tests/run --bin $(B)

check-unit: all $(UNIT_BIN)
	@tests/run --bin $(B) unit

check-cli: all $(FAULT_SO)
	@tests/run --bin $(B) cli

# The signal suite unbounded, by hand: each of SIGINT, SIGTERM, SIGHUP
# and SIGQUIT at every write of opp-set and of every pmctl setter, and
# SIGKILL at each followed by the next run (CI: 6 positions a run, one
# signal at each, no SIGKILL loop over the pmctl setters).
check-signals: all $(FAULT_SO)
	@PM_SIGNALS_FULL=1 PM_SIGNALS_ALL=1 T=signals tests/run --bin $(B) cli

# What CI runs: the suites on the normal and the ASan+UBSan build, and
# the linters, counted in one summary line.
check-all:
	@$(MAKE) -s all unit-tests $(FAULT_SO)
	@$(MAKE) -s SANITIZE=1 all unit-tests
	@tests/run --bin build --bin build/asan unit cli lint valgrind fuzz e2e

# The unit test programs of the current variant.
unit-tests: $(UNIT_BIN)
	@true

# Benchmarks against the anchors (cpupower, cpufrequtils, pm-utils), printing
# figures and ratios; bench/README.md explains them.
bench: all
	@rm -rf /dev/shm/pmtools-bench/rows build/bench/rows
	bench/scaling
	bench/cstate-stat
	bench/pmctl
	bench/opp-set
	bench/pm-suspend
	bench/startup
	bench/rss
	bench/summary

# The Debian packages the build and the tests use (apt-get, as root).
deps:
	@scripts/install-deps

lint: lint-shellcheck lint-mandoc lint-cppcheck lint-clang-tidy

lint-shellcheck:
	shellcheck -S style $(SHELL_FILES)

lint-mandoc:
	@set -e; for m in $(MAN); do mandoc -Tlint -W warning $$m; done

lint-cppcheck:
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability \
	  --inline-suppr --std=c11 -D__GNUC__ -Ilib lib cmd

# The checks are in .clang-tidy, the flags are the build's.  One clang-tidy
# per file, as many at once as there are CPUs, the largest files first; a
# file's findings are printed together, without the "N warnings generated"
# count of the system headers' suppressed ones.
TIDY_SRC   := $(wildcard lib/*.c cmd/*/*.c)
TIDY_FLAGS := -std=gnu11 -D_GNU_SOURCE -Ilib -DPM_DATADIR='"$(DATADIR)"'
lint-clang-tidy:
	@ls -S $(TIDY_SRC) | xargs -P "$$(nproc)" -I{} sh -c \
	  'o=$$(clang-tidy --quiet "$$@" 2>&1) || { printf "%s\n" "$$o" | \
	   grep -v " generated\.$$"; exit 1; }' sh {} -- $(TIDY_FLAGS)

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SBINDIR)
	install -m 0755 $(B)/pmctl $(B)/cstate-stat $(DESTDIR)$(BINDIR)/
	install -m 0755 $(B)/pm-suspend $(B)/opp-set $(DESTDIR)$(SBINDIR)/
	ln -sf pm-suspend $(DESTDIR)$(SBINDIR)/pm-hibernate
	ln -sf pm-suspend $(DESTDIR)$(SBINDIR)/pm-suspend-hybrid
	ln -sf ../sbin/pm-suspend $(DESTDIR)$(BINDIR)/pm-is-supported
	@set -e; for m in $(MAN); do s=$${m##*.}; \
	  install -d $(DESTDIR)$(MANDIR)/man$$s; \
	  install -m 0644 $$m $(DESTDIR)$(MANDIR)/man$$s/; done
	@set -e; for n in pm-hibernate pm-suspend-hybrid pm-is-supported; do \
	  ln -sf pm-suspend.8 $(DESTDIR)$(MANDIR)/man8/$$n.8; done
	install -d $(DESTDIR)$(DATADIR)/opp.d
	@set -e; for f in data/opp.d/*.conf; do [ -e "$$f" ] || continue; \
	  install -m 0644 $$f $(DESTDIR)$(DATADIR)/opp.d/; done
	install -d $(DESTDIR)$(DATADIR)/acpid/events $(DESTDIR)$(DATADIR)/acpid/actions \
	  $(DESTDIR)$(DATADIR)/sleep.d $(DESTDIR)$(DATADIR)/cron
	install -m 0644 data/acpid/events/* $(DESTDIR)$(DATADIR)/acpid/events/
	install -m 0755 scripts/acpid/actions/* $(DESTDIR)$(DATADIR)/acpid/actions/
	install -m 0755 scripts/sleep.d/* $(DESTDIR)$(DATADIR)/sleep.d/
	install -m 0644 data/cron/pmtools.cron $(DESTDIR)$(DATADIR)/cron/
	install -m 0755 scripts/cron/pmtools-textfile $(DESTDIR)$(SBINDIR)/
	@set -e; if [ -f scripts/completion/pmtools.bash ]; then \
	  install -d $(DESTDIR)$(COMPDIR); \
	  install -m 0644 scripts/completion/pmtools.bash $(DESTDIR)$(COMPDIR)/pmtools; \
	  for n in pmctl pm-suspend pm-suspend-hybrid opp-set cstate-stat; do \
	    ln -sf pmtools $(DESTDIR)$(COMPDIR)/$$n; done; fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/pmctl $(DESTDIR)$(BINDIR)/cstate-stat \
	  $(DESTDIR)$(BINDIR)/pm-is-supported $(DESTDIR)$(SBINDIR)/pm-suspend \
	  $(DESTDIR)$(SBINDIR)/opp-set $(DESTDIR)$(SBINDIR)/pm-hibernate \
	  $(DESTDIR)$(SBINDIR)/pm-suspend-hybrid
	@for m in $(MAN); do s=$${m##*.}; \
	  rm -f $(DESTDIR)$(MANDIR)/man$$s/$${m##*/}; done
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man8/,pm-hibernate.8 \
	  pm-suspend-hybrid.8 pm-is-supported.8)
	rm -f $(DESTDIR)$(SBINDIR)/pmtools-textfile
	rm -f $(addprefix $(DESTDIR)$(COMPDIR)/,pmtools pmctl pm-suspend \
	  pm-hibernate pm-suspend-hybrid pm-is-supported opp-set cstate-stat)
	rm -rf $(DESTDIR)$(DATADIR)

# The tools on Debian's own kernel in QEMU (tests/e2e/README.md).
check-e2e:
	@tests/run e2e

# The long soak in QEMU, by hand: SOAK_S3 real S3 cycles and SOAK_HOTPLUG
# CPU hotplug cycles under cstate-stat (CI runs 5 and 20 in check-e2e),
# with every check and the figures shown (-v).
SOAK_S3 ?= 50
SOAK_HOTPLUG ?= 100
soak:
	@E2E_SOAK_S3=$(SOAK_S3) E2E_SOAK_HOTPLUG=$(SOAK_HOTPLUG) tests/e2e/run -v soak

# libFuzzer targets of libpm's parsers, FUZZ_S seconds each (CI: 20).
FUZZ_S ?= 60
fuzz:
	@FUZZ_S=$(FUZZ_S) tests/run fuzz

# The kernel cache in build/cache survives clean.
clean:
	rm -rf build/lib build/cmd build/unit build/asan build/static \
	  build/libpm.a $(addprefix build/,$(TOOLS)) build/tmp

distclean:
	rm -rf build

-include $(LIB_OBJ:.o=.d) $(foreach t,$(TOOLS),$($(t)_OBJ:.o=.d))
