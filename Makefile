# SPDX-License-Identifier: GPL-2.0-or-later
# pmtools: one entry point for building, testing, linting and installing.

VERSION   := 0.1.0

# Every installed path comes from here: the binaries get theirs at build
# time (PATH_DEFS), the man pages, completion, units, udev rule and
# scripts at install time (install-data).  A PREFIX given to
# `make install` that differs from the one `make` built with rebuilds the
# binaries first (the paths stamp below), so `make && make install
# PREFIX=/usr` installs binaries that look in /usr.
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
SBINDIR   ?= $(PREFIX)/sbin
DATADIR   ?= $(PREFIX)/share/pmtools
LIBEXECDIR ?= $(PREFIX)/libexec/pmtools
MANDIR    ?= $(PREFIX)/share/man
COMPDIR   ?= $(PREFIX)/share/bash-completion/completions
# bash-completion ships completions of its own for pm-suspend,
# pm-hibernate, pm-suspend-hybrid and pm-is-supported (for pm-utils) in
# COMPDIR: a package cannot replace those files, so it sets COMPATCOMPDIR
# (/etc/bash_completion.d, read when bash-completion starts) to get a
# small file that claims these four names there instead of links in
# COMPDIR.
COMPATCOMPDIR ?=
# systemd and udev read these under /usr/local too, but for
# systemd-sleep, which reads only /usr/lib/systemd/system-sleep (and
# /lib/... before the /usr merge): install with PREFIX=/usr or set it.
UNITDIR   ?= $(PREFIX)/lib/systemd/system
SLEEPHOOKDIR ?= $(PREFIX)/lib/systemd/system-sleep
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
# pm-utils' own hook folder, which pm-suspend reads: set (to
# /usr/lib/pm-utils/sleep.d) to install the resume hook 50pmtools-opp
# there; empty, it is only an example in DATADIR/sleep.d.
PMUTILS_SLEEPDIR ?=
# initramfs-tools reads its hooks and boot scripts only below
# /usr/share/initramfs-tools (and /etc/initramfs-tools): install with
# PREFIX=/usr or set it, for pm-resume in Debian's initramfs.
INITRAMFSDIR ?= $(PREFIX)/share/initramfs-tools
SYSTEMCTL ?= /bin/systemctl
DESTDIR   ?=

CC        ?= cc
CFLAGS    ?= -O2 -g
WARN      := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wstrict-prototypes \
             -Wmissing-prototypes -Wno-format-nonliteral
# The build environment's CPPFLAGS, CFLAGS and LDFLAGS (dpkg-buildflags'
# hardening and -ffile-prefix-map) come after ours and win; a
# _FORTIFY_SOURCE of theirs replaces ours rather than redefine it.
HARDEN    := $(if $(findstring _FORTIFY_SOURCE,$(CPPFLAGS) $(CFLAGS)),,-D_FORTIFY_SOURCE=2) \
             -fstack-protector-strong
# The paths compiled into the binaries.
PATH_DEFS := -DPM_DATADIR='"$(DATADIR)"'
PM_CFLAGS := -std=gnu11 -D_GNU_SOURCE $(WARN) -Ilib $(PATH_DEFS) -MMD -MP

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

ALL_CFLAGS  = $(PM_CFLAGS) $(HARDEN) $(CPPFLAGS) $(CFLAGS) $(VARIANT)
ALL_LDFLAGS = $(LDFLAGS) $(VLDFLAGS)
LDLIBS     += -lm
# zstd compresses pm-suspend's hibernation image (lib/snapimg.c); only
# the binaries that use it link it, so the others need no libzstd.
ZSTD_LIBS  := -lzstd
pm-suspend_LIBS := $(ZSTD_LIBS)

TOOLS     := pmctl pm-suspend opp-set cstate-stat
LIB_SRC   := $(wildcard lib/*.c)
LIB_OBJ   := $(patsubst lib/%.c,$(B)/lib/%.o,$(LIB_SRC))
LIBPM     := $(B)/libpm.a
BINS      := $(addprefix $(B)/,$(TOOLS))
UNIT_SRC  := $(wildcard tests/unit/test_*.c)
UNIT_BIN  := $(patsubst tests/unit/%.c,$(B)/unit/%,$(UNIT_SRC))
MAN       := $(wildcard man/*.[578])

SHELL_FILES = $(shell git ls-files 2>/dev/null | \
                grep -E '(\.sh|\.bash|\.bats)$$|^scripts/|^bench/|^\.ci/run$$|^tests/fixtures/mkfixture$$|^tests/pkg/mkchroot$$|^tests/run$$|^tests/pmutils/record$$|^tests/fuzz/(run|mkcorpus)$$|^tests/fault/signal-loop$$|^tests/e2e/(run|init)$$' | \
                grep -vE '\.(md|conf|desc|cron|[578])$$|^bench/results/')

.PHONY: all check check-unit check-cli check-all check-signals check-e2e check-pkg fuzz unit-tests bench deps lint lint-shellcheck \
        lint-mandoc lint-cppcheck lint-clang-tidy install install-bin install-data \
        uninstall clean distclean soak FORCE

all: $(LIBPM) $(BINS)

# PATH_DEFS as the objects in $(B) were compiled with.  Rewritten only
# when they change (a PREFIX or DATADIR given to make install that make
# did not get), and every object depends on it: the binaries are then
# rebuilt before they are installed.  Make looks at its time after the
# recipe ran, so an unchanged stamp rebuilds nothing.
PATHS_STAMP := $(B)/paths.stamp
PATH_DEFS_Q  = $(subst ','\'',$(PATH_DEFS))
$(PATHS_STAMP): FORCE
	@mkdir -p $(@D)
	@if [ "$$(cat $@ 2>/dev/null)" != '$(PATH_DEFS_Q)' ]; then \
	  printf '%s\n' '$(PATH_DEFS_Q)' >$@; fi
FORCE:

$(B)/lib/%.o: lib/%.c $(PATHS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(B)/cmd/%.o: cmd/%.c $(PATHS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIBPM): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# Each binary: the objects of its own folder over libpm.
define tool_rule
$(1)_OBJ := $$(patsubst cmd/%.c,$(B)/cmd/%.o,$$(wildcard cmd/$(1)/*.c))
$(B)/$(1): $$($(1)_OBJ) $(LIBPM)
	$$(CC) $$(ALL_LDFLAGS) -o $$@ $$^ $$($(1)_LIBS) $$(LDLIBS)
endef
$(foreach t,$(TOOLS),$(eval $(call tool_rule,$(t))))

$(B)/unit/%: tests/unit/%.c tests/unit/tap.h tests/unit/tree.h $(LIBPM) $(PATHS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Itests/unit $(ALL_LDFLAGS) -o $@ $< $(LIBPM) $(ZSTD_LIBS) $(LDLIBS)

# Every suite, one summary line.  SANITIZE=1 runs them on build/asan.
# The fault shim of tests/fault (LD_PRELOAD; not with ASan or static).
FAULT_SO := build/fault.so
$(FAULT_SO): tests/fault/fault.c
	@mkdir -p $(@D)
	$(CC) $(PM_CFLAGS) $(CFLAGS) -fPIC -shared -o $@ $< -ldl

# The tests' tree listing (tests/tools/treesum.c), for "the tree is
# unchanged": one process where find | sort | xargs sha1sum was four.
TREESUM := build/treesum
$(TREESUM): tests/tools/treesum.c
	@mkdir -p $(@D)
	$(CC) $(PM_CFLAGS) $(CFLAGS) -o $@ $<

# The tests' copies of fixture trees (tests/tools/fxcopy.c): half of
# cp -a's system calls.
FXCOPY := build/fxcopy
$(FXCOPY): tests/tools/fxcopy.c
	@mkdir -p $(@D)
	$(CC) $(PM_CFLAGS) $(CFLAGS) -o $@ $<

# The tests' nl80211 (tests/tools/fake-nl80211.c): Wi-Fi power save
# under a --sysroot, answered on a socket below the root.
FAKE_NL80211 := build/fake-nl80211
$(FAKE_NL80211): tests/tools/fake-nl80211.c
	@mkdir -p $(@D)
	$(CC) $(PM_CFLAGS) $(CFLAGS) -o $@ $<

# The tests' run, xrun and xout without a fork of the shell, and builtins
# that spawn the programs the tests run most (tests/tools/spawn.c;
# tests/cli/bats/run.bash): built where Debian's bash-builtins gives bash's
# headers, else the tests use bats' own run and fork.
SPAWN_SO := $(if $(wildcard /usr/include/bash/config.h),build/spawn.so)
build/spawn.so: tests/tools/spawn.c
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -Wextra -Werror -fPIC -shared -I/usr/include/bash \
	  -I/usr/include/bash/include -I/usr/include/bash/builtins -o $@ $<

# The tests' hibernation images (tests/tools/mksnapimg.c), written by
# libpm's own writer for pm-resume --check.
MKSNAPIMG := build/mksnapimg
$(MKSNAPIMG): tests/tools/mksnapimg.c $(LIBPM)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIBPM) $(ZSTD_LIBS) $(LDLIBS)

# The developer's loop: unit tests and the bats files on this build, the
# exhaustive loops sampled (FULL=1: whole, as CI's normal build runs them).
check: all $(UNIT_BIN) $(FAULT_SO) $(TREESUM) $(FXCOPY) $(FAKE_NL80211) $(SPAWN_SO) $(MKSNAPIMG)
	@FULL=$(FULL) tests/run --bin $(B)

check-unit: all $(UNIT_BIN)
	@tests/run --bin $(B) unit

check-cli: all $(FAULT_SO) $(TREESUM) $(FXCOPY) $(FAKE_NL80211) $(SPAWN_SO) $(MKSNAPIMG)
	@FULL=$(FULL) tests/run --bin $(B) cli

# The signal suite unbounded, by hand: each of SIGINT, SIGTERM, SIGHUP
# and SIGQUIT at every write of opp-set and of every pmctl setter, and
# SIGKILL at each followed by the next run (CI: 6 positions a run, one
# signal at each, no SIGKILL loop over the pmctl setters).
check-signals: all $(FAULT_SO) $(TREESUM) $(FXCOPY) $(FAKE_NL80211) $(SPAWN_SO) $(MKSNAPIMG)
	@PM_SIGNALS_FULL=1 PM_SIGNALS_ALL=1 T=signals tests/run --bin $(B) cli

# What CI runs: the suites on the normal and the ASan+UBSan build, and
# the linters, counted in one summary line.  The bats files' exhaustive
# loops run whole on the normal build and sampled under ASan (every write
# position and every errno, not every pair of them).
check-all:
	@$(MAKE) -s all unit-tests $(FAULT_SO) $(TREESUM) $(FXCOPY) $(FAKE_NL80211) $(SPAWN_SO) $(MKSNAPIMG)
	@$(MAKE) -s SANITIZE=1 all unit-tests
	@JOBS=$${JOBS:-$$(($$(nproc) * 2))} FULL=$${FULL:-normal} \
	  PMTOOLS_PKG_CHROOT=$${PMTOOLS_PKG_CHROOT:-$$([ "$$(id -u)" = 0 ] && echo 1 || echo 0)} \
	  tests/run --bin build --bin build/asan unit cli lint valgrind fuzz e2e pkg

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
	bench/timings
	bench/startup
	bench/rss
	bench/lean
	bench/summary

# The Debian packages the build and the tests use (apt-get, as root).
deps:
	@scripts/install-deps

lint: lint-shellcheck lint-mandoc lint-cppcheck lint-clang-tidy

# A bats file's tests each run in a process of their own, which shellcheck
# sees as subshells of one script: a variable a test sets by printf -v
# (fixture -v VAR, fresh -v VAR) and another assigns plainly is not the
# "change lost in a subshell" of SC2030 and SC2031, there only.
lint-shellcheck:
	shellcheck -S style $(filter-out %.bats,$(SHELL_FILES))
	shellcheck -S style -x -e SC2030,SC2031 $(filter %.bats,$(SHELL_FILES))

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
TIDY_FLAGS := -std=gnu11 -D_GNU_SOURCE -Ilib $(PATH_DEFS)
lint-clang-tidy:
	@ls -S $(TIDY_SRC) | xargs -P "$$(nproc)" -I{} sh -c \
	  'o=$$(clang-tidy --quiet "$$@" 2>&1) || { printf "%s\n" "$$o" | \
	   grep -v " generated\.$$"; exit 1; }' sh {} -- $(TIDY_FLAGS)

# What install puts where.  A new installed file goes into one of these
# lists (or a line of install-data); uninstall follows the same lists.
BIN_TOOLS     := pmctl cstate-stat
SBIN_TOOLS    := pm-suspend opp-set
# pm-suspend's other names, and their man pages (links to pm-suspend.8).
SBIN_NAMES    := pm-hibernate pm-suspend-hybrid pm-resume
BIN_NAMES     := pm-is-supported
SBIN_SCRIPTS  := scripts/cron/pmtools-textfile
LIBEXEC_SCRIPTS := scripts/systemd/auto-recheck
UNITS         := $(patsubst data/systemd/%.in,%,$(wildcard data/systemd/*.in))
UDEV_RULES    := $(patsubst data/udev/%.in,%,$(wildcard data/udev/*.in))
# The names the completion answers to: links to it in COMPDIR, the four
# that pm-utils also has in COMPATCOMPDIR when that is set.
COMP_NAMES    := pmctl opp-set cstate-stat pmtools-textfile pm-resume
COMP_PMUTILS  := pm-suspend pm-hibernate pm-suspend-hybrid pm-is-supported

# The @NAME@ placeholders of data/systemd, data/udev and the completion
# file for COMPATCOMPDIR; install fails on one that is not replaced.
SUBST = sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SBINDIR@|$(SBINDIR)|g' \
	-e 's|@DATADIR@|$(DATADIR)|g' -e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' \
	-e 's|@COMPDIR@|$(COMPDIR)|g' -e 's|@SYSTEMCTL@|$(SYSTEMCTL)|g'
# The man pages name the default paths (PREFIX /usr/local); these become
# the installed ones, in roff (\- for -) both ways.  system-sleep goes
# before system, of which it is a longer form.
DEF_PREFIX := /usr/local
roff = $(subst -,\\-,$(1))
MANSUBST = sed \
	-e 's|$(call roff,$(DEF_PREFIX)/lib/systemd/system-sleep)|$(call roff,$(SLEEPHOOKDIR))|g' \
	-e 's|$(DEF_PREFIX)/lib/systemd/system|$(call roff,$(UNITDIR))|g' \
	-e 's|$(DEF_PREFIX)/lib/udev/rules.d|$(call roff,$(UDEVRULESDIR))|g' \
	-e 's|$(DEF_PREFIX)/libexec/pmtools|$(call roff,$(LIBEXECDIR))|g' \
	-e 's|$(DEF_PREFIX)/share/pmtools|$(call roff,$(DATADIR))|g' \
	-e 's|$(DEF_PREFIX)/bin/|$(call roff,$(BINDIR))/|g' \
	-e 's|$(DEF_PREFIX)/sbin/|$(call roff,$(SBINDIR))/|g'
COMPSUBST = sed -e 's|^_pmtools_opp_dirs=(.*)$$|_pmtools_opp_dirs=($(DATADIR)/opp.d)|'

install: install-bin install-data

install-bin: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SBINDIR)
	install -m 0755 $(addprefix $(B)/,$(BIN_TOOLS)) $(DESTDIR)$(BINDIR)/
	install -m 0755 $(addprefix $(B)/,$(SBIN_TOOLS)) $(DESTDIR)$(SBINDIR)/
	@set -e; for n in $(SBIN_NAMES); do \
	  ln -sf pm-suspend $(DESTDIR)$(SBINDIR)/$$n; done
	@set -e; r=$$(realpath -s -m --relative-to=$(BINDIR) $(SBINDIR)); \
	  for n in $(BIN_NAMES); do \
	  ln -sf $$r/pm-suspend $(DESTDIR)$(BINDIR)/$$n; done

# Everything but the binaries: nothing here is built, so it never
# rebuilds them.
install-data:
	install -d $(DESTDIR)$(SBINDIR)
	install -m 0755 $(SBIN_SCRIPTS) $(DESTDIR)$(SBINDIR)/
	@set -e; for m in $(MAN); do s=$${m##*.}; \
	  install -d $(DESTDIR)$(MANDIR)/man$$s; \
	  $(MANSUBST) $$m >$(DESTDIR)$(MANDIR)/man$$s/$${m##*/}; \
	  chmod 0644 $(DESTDIR)$(MANDIR)/man$$s/$${m##*/}; done
	@set -e; for n in $(SBIN_NAMES) $(BIN_NAMES); do \
	  ln -sf pm-suspend.8 $(DESTDIR)$(MANDIR)/man8/$$n.8; done
	install -d $(DESTDIR)$(DATADIR)/opp.d
	@set -e; for f in data/opp.d/*.conf; do [ -e "$$f" ] || continue; \
	  install -m 0644 $$f $(DESTDIR)$(DATADIR)/opp.d/; done
	install -d $(DESTDIR)$(DATADIR)/acpid/events $(DESTDIR)$(DATADIR)/acpid/actions \
	  $(DESTDIR)$(DATADIR)/sleep.d $(DESTDIR)$(DATADIR)/cron
	install -m 0644 data/acpid/events/* $(DESTDIR)$(DATADIR)/acpid/events/
	install -m 0755 scripts/acpid/actions/* $(DESTDIR)$(DATADIR)/acpid/actions/
	install -m 0755 scripts/sleep.d/* $(DESTDIR)$(DATADIR)/sleep.d/
	install -m 0644 scripts/pm-functions $(DESTDIR)$(DATADIR)/pm-functions
	install -m 0644 data/cron/pmtools.cron $(DESTDIR)$(DATADIR)/cron/
	install -d $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(UNITDIR) \
	  $(DESTDIR)$(UDEVRULESDIR) $(DESTDIR)$(SLEEPHOOKDIR)
	install -m 0755 $(LIBEXEC_SCRIPTS) $(DESTDIR)$(LIBEXECDIR)/
	@set -e; for u in $(UNITS); do \
	  $(SUBST) data/systemd/$$u.in >$(DESTDIR)$(UNITDIR)/$$u; \
	  chmod 0644 $(DESTDIR)$(UNITDIR)/$$u; done
	@set -e; for r in $(UDEV_RULES); do \
	  $(SUBST) data/udev/$$r.in >$(DESTDIR)$(UDEVRULESDIR)/$$r; \
	  chmod 0644 $(DESTDIR)$(UDEVRULESDIR)/$$r; done
	install -m 0755 scripts/sleep.d/50pmtools-opp $(DESTDIR)$(SLEEPHOOKDIR)/pmtools-opp
	@set -e; if [ -n "$(PMUTILS_SLEEPDIR)" ]; then \
	  install -d $(DESTDIR)$(PMUTILS_SLEEPDIR); \
	  install -m 0755 scripts/sleep.d/50pmtools-opp $(DESTDIR)$(PMUTILS_SLEEPDIR)/; fi
	install -d $(DESTDIR)$(INITRAMFSDIR)/hooks \
	  $(DESTDIR)$(INITRAMFSDIR)/scripts/local-premount
	$(SUBST) scripts/initramfs/hook.in >$(DESTDIR)$(INITRAMFSDIR)/hooks/pmtools
	chmod 0755 $(DESTDIR)$(INITRAMFSDIR)/hooks/pmtools
	install -m 0755 scripts/initramfs/pmtools-resume \
	  $(DESTDIR)$(INITRAMFSDIR)/scripts/local-premount/
	install -d $(DESTDIR)$(COMPDIR)
	$(COMPSUBST) scripts/completion/pmtools.bash >$(DESTDIR)$(COMPDIR)/pmtools
	chmod 0644 $(DESTDIR)$(COMPDIR)/pmtools
	@set -e; for n in $(COMP_NAMES) $(if $(COMPATCOMPDIR),,$(COMP_PMUTILS)); do \
	  ln -sf pmtools $(DESTDIR)$(COMPDIR)/$$n; done
	@set -e; if [ -n "$(COMPATCOMPDIR)" ]; then \
	  install -d $(DESTDIR)$(COMPATCOMPDIR); \
	  $(SUBST) scripts/completion/pmtools-compat.bash.in \
	    >$(DESTDIR)$(COMPATCOMPDIR)/pmtools; \
	  chmod 0644 $(DESTDIR)$(COMPATCOMPDIR)/pmtools; fi
	@if grep -rlE '@[A-Z]+@' $(addprefix $(DESTDIR)$(UNITDIR)/,$(UNITS)) \
	  $(addprefix $(DESTDIR)$(UDEVRULESDIR)/,$(UDEV_RULES)) \
	  $(DESTDIR)$(INITRAMFSDIR)/hooks/pmtools \
	  $(if $(COMPATCOMPDIR),$(DESTDIR)$(COMPATCOMPDIR)/pmtools); then \
	  echo "install: a placeholder left in the files above" >&2; exit 1; fi
	@if ! grep -qxF '_pmtools_opp_dirs=($(DATADIR)/opp.d)' \
	  $(DESTDIR)$(COMPDIR)/pmtools; then \
	  echo "install: the completion's _pmtools_opp_dirs was not set" >&2; exit 1; fi

uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(BIN_TOOLS) $(BIN_NAMES)) \
	  $(addprefix $(DESTDIR)$(SBINDIR)/,$(SBIN_TOOLS) $(SBIN_NAMES) \
	  $(notdir $(SBIN_SCRIPTS)))
	@for m in $(MAN); do s=$${m##*.}; \
	  rm -f $(DESTDIR)$(MANDIR)/man$$s/$${m##*/}; done
	rm -f $(patsubst %,$(DESTDIR)$(MANDIR)/man8/%.8,$(SBIN_NAMES) $(BIN_NAMES))
	rm -f $(addprefix $(DESTDIR)$(COMPDIR)/,pmtools $(COMP_NAMES) $(COMP_PMUTILS))
	$(if $(COMPATCOMPDIR),rm -f $(DESTDIR)$(COMPATCOMPDIR)/pmtools)
	rm -f $(addprefix $(DESTDIR)$(UNITDIR)/,$(UNITS)) \
	  $(addprefix $(DESTDIR)$(UDEVRULESDIR)/,$(UDEV_RULES)) \
	  $(DESTDIR)$(SLEEPHOOKDIR)/pmtools-opp \
	  $(DESTDIR)$(INITRAMFSDIR)/hooks/pmtools \
	  $(DESTDIR)$(INITRAMFSDIR)/scripts/local-premount/pmtools-resume
	$(if $(PMUTILS_SLEEPDIR),rm -f $(DESTDIR)$(PMUTILS_SLEEPDIR)/50pmtools-opp)
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(LIBEXECDIR)

# The Debian package: built, lintian, installed into a Debian 12 chroot
# (tests/pkg; root, and the network for debootstrap's first run: 6
# minutes here, then seconds from build/cache/).  check-all runs it too
# when it runs as root, beside the other suites.
check-pkg:
	@PMTOOLS_PKG_CHROOT=1 tests/run pkg

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

# libFuzzer targets of libpm's parsers, FUZZ_S seconds each (CI: 10).
FUZZ_S ?= 60
fuzz:
	@FUZZ_S=$(FUZZ_S) tests/run fuzz

# The kernel cache in build/cache survives clean.
clean:
	rm -rf build/lib build/cmd build/unit build/asan build/static \
	  build/libpm.a $(addprefix build/,$(TOOLS)) build/tmp build/paths.stamp \
	  $(FAULT_SO) $(TREESUM) $(FXCOPY) $(FAKE_NL80211) build/spawn.so $(MKSNAPIMG)

distclean:
	rm -rf build

-include $(LIB_OBJ:.o=.d) $(foreach t,$(TOOLS),$($(t)_OBJ:.o=.d))
