# ssimulacra2 overlay on FFmpeg: top-level Makefile (GNU make).
# ./configure first; it writes config.mk and configures FFmpeg in build/obj.

# the build's settings; make check-asan runs this Makefile again on build-asan/config.mk
S2_CONFIG ?= config.mk
-include $(S2_CONFIG)

B         := $(or $(S2_BUILD),$(CURDIR)/build)
OBJ       := $(B)/obj
NPROC     := $(shell nproc 2>/dev/null || echo 2)
# -j$(NPROC) unless the user gave -j (checked when the recipe runs, when MAKEFLAGS is complete)
JOBS       = $(if $(filter -j% j%,$(MAKEFLAGS))$(findstring jobserver,$(MAKEFLAGS)),,-j$(NPROC))

FFMPEG    := $(B)/ffmpeg
FFPROBE   := $(B)/ffprobe
SSIMU2_SAMPLES    ?= $(if $(wildcard $(CURDIR)/../shared/testdata),$(abspath $(CURDIR)/../shared/testdata),)
SSIMU2_ORACLE_SRC ?= $(if $(wildcard $(CURDIR)/../shared/tools/ssimu2-oracle.c),$(abspath $(CURDIR)/../shared/tools/ssimu2-oracle.c),)

# ccache: the same hits from any clone (FFmpeg is configured with a relative source path)
export CCACHE_NOHASHDIR := 1
export CCACHE_BASEDIR   := $(CURDIR)
BUILD_OBJ := $(OBJ)
export FFMPEG FFPROBE SSIMU2_SAMPLES SSIMU2_ORACLE_SRC BUILD_OBJ S2_CONFIG

.PHONY: all demo check check-fate check-oracle check-cuda check-asan check-tsan bench bench-cuda doc patches dist install \
        clean distclean configured help

all: configured
	@+$(MAKE) --no-print-directory -C $(OBJ) $(JOBS) ffmpeg ffprobe
	@for p in ffmpeg ffprobe; do \
	    cmp -s $(OBJ)/$$p $(B)/$$p || { cp -p $(OBJ)/$$p $(B)/$$p.tmp && mv -f $(B)/$$p.tmp $(B)/$$p && echo "  -> $(B:$(CURDIR)/%=%)/$$p"; }; \
	done

# configure and the scripts it runs: they decide which of our files the FFmpeg tree holds
# and how they are built
CONFIGURE_DEPS := configure $(patsubst %,build-aux/%.sh,deps apt-source ffmpeg-source nvcodec \
                  register build-tree components)

# configured again, with the same command line, when one of those changed since
configured:
	@test -f $(S2_CONFIG) && test -f $(OBJ)/ffbuild/config.mak || \
	    { echo "Not configured: run ./configure first (./configure --help for options)." >&2; exit 1; }
	@for f in $(CONFIGURE_DEPS); do \
	    test $(S2_CONFIG) -nt $$f || { echo "$$f changed since ./configure ran: configuring again"; \
	        $(or $(CONFIGURE_CMD),./configure $(CONFIGURE_ARGS)) || exit 1; break; }; \
	done

# run-script SCRIPT ARGS...: run a script of the project with bash (executable bit or not)
run-script = @bash ./$(1) $(2)

check: all
	$(call run-script,tests/run-all.sh)
	+@$(MAKE) --no-print-directory check-fate

# FATE tests of the filters (lavfi sources only: no SAMPLES needed), and checkasm: the dsp
# functions of each CPU level of this machine against the C ones
check-fate: all
	+$(MAKE) --no-print-directory -C $(OBJ) $(JOBS) fate-ssimulacra2 fate-checkasm-vf_ssimulacra2

# The compact FFmpeg (--minimal: the full set would be a second long build) with
# AddressSanitizer + UBSan in build-asan/ (./configure --build-dir --enable-sanitizers, again
# when configure changes), then make check against it, output in
# tests/out-asan. Reports go to files (log_path) and are counted at the end, so that a test
# expecting ffmpeg to fail, or hiding its stderr, cannot hide one. Common flags in both
# variables: with both runtimes linked in, the last one parsed (UBSAN_OPTIONS) wins.
ASAN_B    := $(CURDIR)/build-asan
ASAN_OUT  := $(CURDIR)/tests/out-asan
ASAN_LOGS := $(ASAN_OUT)/sanitizer
# (UBSan is built recoverable: halt_on_error=1 makes its reports fatal)
SAN_OPTS  := halt_on_error=1:abort_on_error=0:exitcode=86:print_stacktrace=1:detect_leaks=1:log_path=$(ASAN_LOGS)/report
# cuda-emu's fibers are ucontext: ASan warns once per process that it cannot follow
# swapcontext fully; that warning is no report
SAN_BENIGN := ASan doesn't fully support makecontext/swapcontext
# san-build DIR OPTION: the compact FFmpeg with a sanitizer in DIR, configured again when
# configure or its scripts changed, then built
define san-build
	@up=yes; for f in $(CONFIGURE_DEPS); do test $(1)/config.mk -nt $$f || up=no; done; \
	    [ $$up = yes ] || ./configure $(filter-out --minimal,$(CONFIGURE_ARGS)) --minimal --build-dir=$(1) $(2)
	+@$(MAKE) --no-print-directory S2_CONFIG=$(1)/config.mk all
endef

check-asan:
	$(call san-build,$(ASAN_B),--enable-sanitizers)
	@rm -rf $(ASAN_LOGS) && mkdir -p $(ASAN_LOGS)
	+@rc=0; \
	ASAN_OPTIONS=$(SAN_OPTS) UBSAN_OPTIONS=$(SAN_OPTS):suppressions=$(CURDIR)/tests/ubsan.supp \
	SSIMU2_TEST_OUT=$(ASAN_OUT) $(MAKE) --no-print-directory S2_CONFIG=$(ASAN_B)/config.mk check || rc=1; \
	n=0; for f in $(ASAN_LOGS)/report.*; do \
	    [ -f "$$f" ] && grep -v -F "$(SAN_BENIGN)" "$$f" | grep -q . || continue; \
	    n=$$((n + 1)); echo "=== sanitizer report $$f"; cat "$$f"; \
	done; \
	echo "check-asan: $$n sanitizer report(s) (tests/out-asan/sanitizer), suite $$([ $$rc = 0 ] && echo passed || echo FAILED)"; \
	[ $$n = 0 ] && [ $$rc = 0 ]

# ThreadSanitizer: the compact FFmpeg in build-tsan/ (./configure --build-dir --enable-tsan),
# then the tests that run the CPU filter's threads against each other (determinism at 1 to 33
# threads, the reference subset). Reports go to files and are counted, as for check-asan.
TSAN_B    := $(CURDIR)/build-tsan
TSAN_OUT  := $(CURDIR)/tests/out-tsan
TSAN_LOGS := $(TSAN_OUT)/sanitizer
check-tsan:
	$(call san-build,$(TSAN_B),--enable-tsan)
	@rm -rf $(TSAN_LOGS) && mkdir -p $(TSAN_LOGS)
	@rc=0; \
	for t in run-determinism.sh "run-refscores.sh --subset-only"; do \
	    TSAN_OPTIONS=log_path=$(TSAN_LOGS)/report:halt_on_error=0 SSIMU2_TEST_OUT=$(TSAN_OUT) \
	    FFMPEG=$(TSAN_B)/ffmpeg FFPROBE=$(TSAN_B)/ffprobe bash tests/$$t || rc=1; \
	done; \
	n=0; for f in $(TSAN_LOGS)/report.*; do \
	    grep -q "WARNING: ThreadSanitizer" "$$f" 2>/dev/null || continue; \
	    n=$$((n + 1)); echo "=== ThreadSanitizer report $$f"; cat "$$f"; \
	done; \
	echo "check-tsan: $$n report file(s) (tests/out-tsan/sanitizer), tests $$([ $$rc = 0 ] && echo passed || echo FAILED)"; \
	[ $$n = 0 ] && [ $$rc = 0 ]

check-oracle: all
	$(call run-script,tests/run-oracle-diff.sh,500)

check-cuda: all
	@bash ./tests/run-cuda-division.sh || [ $$? = 77 ]
	$(call run-script,tests/run-cuda.sh)
	+$(MAKE) --no-print-directory -C $(OBJ) $(JOBS) fate-ssimulacra2-cuda

bench: all
	$(call run-script,tools/bench.sh)

# the README's main job: score a clip pair made at run time from a committed photo
demo: all
	$(call run-script,tools/demo.sh)

bench-cuda: all
	$(call run-script,tools/bench-cuda.sh)

doc: build/doc/ssimulacra2.html

build/doc/ssimulacra2.html: $(wildcard doc/*.texi)
	@command -v makeinfo >/dev/null || { echo "make doc: makeinfo not found (apt-get install texinfo)" >&2; exit 1; }
	@mkdir -p build/doc
	makeinfo --html --no-split -I doc doc/ssimulacra2.texi -o $@

# ffmpeg, ffprobe, FFmpeg's data files and its HTML and man documentation (doc/filters.texi
# with our entries), and our manual, under $(DESTDIR)$(PREFIX)
PREFIX ?= /usr/local
install: all
	@command -v makeinfo >/dev/null || { echo "make install: makeinfo not found (apt-get install texinfo)" >&2; exit 1; }
	+$(MAKE) --no-print-directory -C $(OBJ) install-progs install-data install-doc \
	    prefix="$(PREFIX)" DESTDIR="$(DESTDIR)"
	makeinfo --html --no-split -I doc doc/ssimulacra2.texi -o "$(DESTDIR)$(PREFIX)/share/doc/ffmpeg/ssimulacra2.html"

# a tarball that runs without installing anything: binaries, their libraries, licences,
# sources (build/dist/)
dist: all
	$(call run-script,tools/make-dist.sh)

# git am series against the pristine FFmpeg tree, into build/patches/
patches: configured
	@sh build-aux/make-patches.sh "$(FFMPEG_SRC)" "$(CURDIR)" "$(B)/patches" "$(B)/src" "$(CUDA)"

clean:
	@if [ -f $(OBJ)/Makefile ]; then $(MAKE) --no-print-directory -C $(OBJ) clean; fi
	rm -f $(B)/ffmpeg $(B)/ffprobe

distclean:
	rm -rf build build-asan build-tsan config.mk

help:
	@echo "targets: all (default) demo check check-fate check-oracle check-cuda check-asan check-tsan bench bench-cuda doc patches dist install clean distclean"
