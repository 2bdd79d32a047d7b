# ssimulacra2 overlay on FFmpeg: top-level Makefile (GNU make).
# ./configure first; it writes config.mk and configures FFmpeg in build/obj.

-include config.mk

B         := $(CURDIR)/build
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
export FFMPEG FFPROBE SSIMU2_SAMPLES SSIMU2_ORACLE_SRC

.PHONY: all demo check check-fate check-oracle check-cuda bench bench-cuda doc patches clean distclean \
        configured help

all: configured
	@+$(MAKE) --no-print-directory -C $(OBJ) $(JOBS) ffmpeg ffprobe
	@for p in ffmpeg ffprobe; do \
	    cmp -s $(OBJ)/$$p $(B)/$$p || { cp -p $(OBJ)/$$p $(B)/$$p.tmp && mv -f $(B)/$$p.tmp $(B)/$$p && echo "  -> build/$$p"; }; \
	done

configured:
	@test -f config.mk && test -f $(OBJ)/ffbuild/config.mak || \
	    { echo "Not configured: run ./configure first (./configure --help for options)." >&2; exit 1; }

# run-script SCRIPT ARGS...: run a script of the project, or fail clearly when it is missing
run-script = @if [ -x $(1) ]; then ./$(1) $(2); \
	elif [ -f $(1) ]; then bash ./$(1) $(2); \
	else echo "make $@: $(1) is missing (not written yet)" >&2; exit 1; fi

check: all
	$(call run-script,tests/run-all.sh)
	@+if [ -f tests/fate/ssimulacra2.mak ]; then \
	    $(MAKE) --no-print-directory check-fate; \
	else echo "make check: no tests/fate/ssimulacra2.mak, FATE tests skipped"; fi

# FATE tests of the filters (lavfi sources only: no SAMPLES needed)
check-fate: all
	+$(MAKE) --no-print-directory -C $(OBJ) $(JOBS) fate-ssimulacra2

check-oracle: all
	$(call run-script,tests/run-oracle-diff.sh,500)

check-cuda: all
	$(call run-script,tests/run-cuda.sh)

bench: all
	$(call run-script,tools/bench.sh)

# the README's main job: score a clip pair made at run time from a committed photo
demo: all
	$(call run-script,tools/demo.sh)

bench-cuda: all
	$(call run-script,tools/bench-cuda.sh)

doc: build/doc/ssimulacra2.html

build/doc/ssimulacra2.html: $(wildcard doc/*.texi)
	@test -f doc/ssimulacra2.texi || { echo "make doc: doc/ssimulacra2.texi is missing (not written yet)" >&2; exit 1; }
	@command -v makeinfo >/dev/null || { echo "make doc: makeinfo not found (apt-get install texinfo)" >&2; exit 1; }
	@mkdir -p build/doc
	makeinfo --html --no-split -I doc doc/ssimulacra2.texi -o $@

# git am series against the pristine FFmpeg tree, into build/patches/
patches: configured
	@sh build-aux/make-patches.sh "$(FFMPEG_SRC)" "$(CURDIR)" "$(B)/patches"

clean:
	@if [ -f $(OBJ)/Makefile ]; then $(MAKE) --no-print-directory -C $(OBJ) clean; fi
	rm -f $(B)/ffmpeg $(B)/ffprobe

distclean:
	rm -rf build config.mk

help:
	@echo "targets: all (default) check check-fate check-oracle check-cuda bench bench-cuda doc patches clean distclean"
