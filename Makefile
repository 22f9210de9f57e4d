# shloc: StableHLO ahead-of-time compiler.
#   make          build build/shloc and build/libshlort.a
#   make demo     install what is missing, build, compile and run the MNIST example
#   make test     install what is missing, build, run every test
#   make conformance  the conformance scoreboard (writes build/conformance/)
#   make SAN=1    address + undefined-behaviour sanitizer build (build-san/);
#                 `make SAN=1 test` runs the suite on it
#   make TSAN=1   thread sanitizer build with clang-19 and libomp (build-tsan/);
#                 `make TSAN=1 test` runs the stages that use threads
#   make mpi      build/libshlort_mpi.a, the runtime over Open MPI (mpicc)
#   make test-runtime  the runtime's own tests (threads, and MPI under mpirun);
#                 with TSAN=1 / SAN=1 under the sanitizers
#   make fuzz     libFuzzer on the frontend and verifier (tests/fuzz/fuzz.mk)
#   make install  PREFIX=/usr/local: shloc, libshlort.a, shlort.h, pkg-config
#                 and CMake files (DESTDIR for staging); make uninstall
#   make runtime  only build/libshlort.a (with CC=aarch64-linux-gnu-gcc
#                 BUILD=build/aarch64: the runtime for a cross target)
#   make test-cross  run/ and example programs on aarch64, riscv64, riscv64+v
#                 (qemu-user) and x86-64-v3 against the host
#   make anchors  build/venv: jax/jaxlib, onnxruntime, onnx, torch for the bench and oracle
#   make bench    C benchmarks; with build/venv also shloc beside XLA, ORT, PyTorch per model
#   make oracle   every model and conformance program through shloc and XLA (build/oracle/),
#                 testdata/dynamic symbolic vs XLA after jax's shape refinement
#   make fuzz-diff N=200  differential fuzzing: shloc -O0, -O3 and XLA on random programs

LLVM_CONFIG ?= llvm-config-19
CC ?= cc
BUILD ?= build
SHARED ?= ../shared

CFLAGS_BASE := -std=c11 -D_GNU_SOURCE -Wall -Wextra -g
# SAN_FLAGS also go to everything the tests build and link (unit tests,
# examples, drivers of generated code): tests/run.py reads them.
# Any sanitizer report is fatal (-fno-sanitize-recover=all).
SAN_FLAGS :=
ifeq ($(SAN),1)
  SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
  BUILD := build-san
endif
# TSan builds with clang-19, whose sanitizer runtimes (libclang-rt-19-dev)
# the fuzzers need anyway; the runtime's threads are plain pthreads, whose
# synchronization TSan understands without help.
# Open MPI's mpicc then wraps clang-19 too (OMPI_CC): clang's TSan
# instrumentation calls entry points GCC's libtsan lacks (__tsan_memset).
ifeq ($(TSAN),1)
  SAN_FLAGS := -fsanitize=thread -fno-omit-frame-pointer
  CC := clang-19
  export OMPI_CC := clang-19
  BUILD := build-tsan
endif
OPT := $(if $(SAN_FLAGS),-O1 $(SAN_FLAGS),-O2)
LLVM_CFLAGS = $(shell $(LLVM_CONFIG) --cflags 2>/dev/null)
# The shared libLLVM. Linking LLVM's static libraries instead (--link-static
# --libs ... all-targets, and libzstd-dev for -lzstd) was tried: Debian's
# libLLVM.so.19.1 is linked with -Bsymbolic-functions (516 PLT entries, all
# to libc/libstdc++), so LLVM's calls inside itself are direct already.
# BERT t7 1 thread (callgrind): 2.2025e9 -> 2.1876e9 instructions (-0.7%,
# the dynamic linker's symbol lookups); start (--version, 40 runs) 22 -> 14
# ms; ResNet-50 b1 compile 1 and 2 threads, paired rounds at load 3-6: no
# difference beyond the noise (median per-round ratios 0.96-1.12). Not
# kept: a 133 MB tool instead of 5 MB, for a hundredth of a second.
LLVM_LIBS = $(shell $(LLVM_CONFIG) --ldflags --libs core orcjit native passes target mc analysis 2>/dev/null) \
            $(shell $(LLVM_CONFIG) --system-libs 2>/dev/null)
CFLAGS := $(CFLAGS_BASE) $(OPT)

# tools/grid_mpi.c is the MPI transport of build/shloc-mpi (see below).
COMPILER_SRC := $(filter-out tools/grid_mpi.c,$(wildcard ir/*.c frontend/*.c passes/*.c codegen/*.c tools/*.c))
# The runtime: files common to both builds, the grid over threads
# (libshlort.a) and the grid over MPI (libshlort_mpi.a, built with mpicc).
THREADS_SRC := runtime/grid.c runtime/collectives.c runtime/channels.c
MPI_SRC := $(wildcard runtime/mpi*.c)
COMMON_SRC := $(filter-out $(THREADS_SRC) $(MPI_SRC),$(wildcard runtime/*.c))
RUNTIME_SRC := $(COMMON_SRC) $(THREADS_SRC)
COMPILER_OBJ := $(COMPILER_SRC:%.c=$(BUILD)/%.o)
RUNTIME_OBJ := $(RUNTIME_SRC:%.c=$(BUILD)/%.o)
MPI_OBJ := $(COMMON_SRC:runtime/%.c=$(BUILD)/runtime-mpi/%.o) \
           $(MPI_SRC:runtime/%.c=$(BUILD)/runtime-mpi/%.o)
MPICC ?= mpicc
HEADERS := $(wildcard ir/*.h frontend/*.h passes/*.h codegen/*.h runtime/*.h tools/*.h)

SHLOC := $(BUILD)/shloc
SHLORT := $(BUILD)/libshlort.a
# The MPI variant of the runtime, installed when it has been built.
SHLORT_MPI := $(BUILD)/libshlort_mpi.a
VERSION := $(shell sed -n 's/^\#define SHLOC_VERSION "\(.*\)"/\1/p' tools/shloc.c)

all: $(SHLOC) $(SHLORT)

runtime: $(SHLORT)

# `shloc --version` names the upstream commit of the conformance corpus,
# read when shloc.c is compiled; without ../shared it says it is unknown.
CORPUS_COMMIT_FILE := $(wildcard $(SHARED)/conformance/UPSTREAM_COMMIT)
CORPUS_COMMIT := $(if $(CORPUS_COMMIT_FILE),$(shell tr -cd 0-9a-f < $(CORPUS_COMMIT_FILE)))
$(BUILD)/tools/shloc.o: $(CORPUS_COMMIT_FILE)
$(BUILD)/tools/shloc.o: CFLAGS += $(if $(CORPUS_COMMIT),-DSHLOC_CORPUS_COMMIT='"$(CORPUS_COMMIT)"')

# The runtime sees only its own directory: it never includes compiler headers.
$(BUILD)/runtime/%.o: runtime/%.c $(wildcard runtime/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -pthread -c $< -o $@

$(BUILD)/runtime-mpi/%.o: runtime/%.c $(wildcard runtime/*.h)
	@mkdir -p $(dir $@)
	$(MPICC) $(CFLAGS) -fPIC -pthread -c $< -o $@

$(BUILD)/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LLVM_CFLAGS) -c $< -o $@

$(SHLORT): $(RUNTIME_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(SHLORT_MPI): $(MPI_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# build/shloc-mpi: the tool with the MPI transport (tools/grid_mpi.c
# instead of grid_threads.c, libshlort_mpi.a instead of libshlort.a), the
# program `shloc check --mpi` starts under mpirun.
SHLOC_MPI := $(BUILD)/shloc-mpi
$(BUILD)/tools-mpi/grid_mpi.o: tools/grid_mpi.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(MPICC) $(CFLAGS) $(LLVM_CFLAGS) -c $< -o $@

$(SHLOC_MPI): $(filter-out $(BUILD)/tools/grid_threads.o,$(COMPILER_OBJ)) $(BUILD)/tools-mpi/grid_mpi.o $(SHLORT_MPI)
	$(MPICC) $(OPT) -rdynamic -o $@ $(filter %.o,$^) -Wl,--whole-archive $(SHLORT_MPI) \
	  -Wl,--no-whole-archive $(LLVM_LIBS) -pthread -lm

mpi: $(SHLORT_MPI) $(SHLOC_MPI)

# The runtime's tests (tests/runtime/run.sh): built with this build's
# flags, so TSAN=1 / SAN=1 run them under the sanitizers.
test-runtime: $(SHLORT) $(if $(shell command -v $(MPICC)),$(SHLORT_MPI))
	BUILD=$(BUILD) CC="$(CC)" MPICC="$(MPICC)" CFLAGS="$(CFLAGS)" sh tests/runtime/run.sh

# The tool JIT-compiles generated code that calls the runtime, so the
# runtime is linked whole and its symbols exported (-rdynamic).
$(SHLOC): $(COMPILER_OBJ) $(SHLORT)
	$(CC) $(OPT) -rdynamic -o $@ $(COMPILER_OBJ) -Wl,--whole-archive $(SHLORT) -Wl,--no-whole-archive \
	  $(LLVM_LIBS) -pthread -lm

# Installs the Debian packages the build and tests need (as root), only
# when something is missing.
DEB_PACKAGES := llvm-19-dev llvm-19-tools libdnnl-dev libopenblas-dev python3 python3-numpy gcc make \
                libopenmpi-dev openmpi-bin
# The install, cross and bare-metal stages: pkg-config and CMake for the
# installed package, Debian's cross compilers and qemu-user for aarch64 and
# riscv64, arm-none-eabi-gcc and qemu-system-arm for examples/cortex-m.
DEB_PACKAGES += cmake pkgconf gcc-aarch64-linux-gnu gcc-riscv64-linux-gnu qemu-user \
  gcc-arm-none-eabi qemu-system-arm
# clang-19 with its sanitizer and libFuzzer runtimes (make fuzz-smoke in
# make test; make fuzz; make TSAN=1); clang-query-19 for the argument order
# lint (tools/eval_order.py, run by the unit stage).
DEB_PACKAGES += clang-19 libclang-rt-19-dev clang-tools-19
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" != 0 ]; then echo "run as root or install:$$missing" >&2; exit 1; fi; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

PREFIX ?= /usr/local
DESTDIR ?=
INSTALL_FILES := bin/shloc lib/libshlort.a lib/libshlort_mpi.a include/shlort.h \
  lib/pkgconfig/shlort.pc lib/cmake/shloc/shlocConfig.cmake lib/cmake/shloc/shlocConfigVersion.cmake
install: all
	@d=$(DESTDIR)$(PREFIX); \
	install -d $$d/bin $$d/lib/pkgconfig $$d/lib/cmake/shloc $$d/include && \
	install -m 755 $(SHLOC) $$d/bin/shloc && \
	install -m 644 $(SHLORT) $$d/lib/libshlort.a && \
	if [ -f $(SHLORT_MPI) ]; then install -m 644 $(SHLORT_MPI) $$d/lib/libshlort_mpi.a; fi && \
	install -m 644 runtime/shlort.h $$d/include/shlort.h && \
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' packaging/shlort.pc.in \
	  > $$d/lib/pkgconfig/shlort.pc && \
	install -m 644 packaging/shlocConfig.cmake $$d/lib/cmake/shloc/shlocConfig.cmake && \
	sed -e 's|@VERSION@|$(VERSION)|' packaging/shlocConfigVersion.cmake.in \
	  > $$d/lib/cmake/shloc/shlocConfigVersion.cmake && \
	echo "installed shloc $(VERSION) into $$d"

uninstall:
	cd $(DESTDIR)$(PREFIX) && rm -f $(INSTALL_FILES) && \
	rmdir lib/cmake/shloc lib/cmake lib/pkgconfig 2>/dev/null; true
# Only for the anchors' virtual environment (make anchors).
ANCHORS_DEB_PACKAGES := python3-venv
deps-anchors:
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(ANCHORS_DEB_PACKAGES)"

demo: deps
	$(MAKE) all
	$(MAKE) -C examples/mnist run SHLOC=$(abspath $(SHLOC))
	$(MAKE) -C examples/threads run SHLOC=$(abspath $(SHLOC)) SHLORT=$(abspath $(SHLORT))

test: deps
	$(MAKE) all mpi
	BUILD=$(BUILD) SHARED=$(SHARED) LLVM_CONFIG=$(LLVM_CONFIG) CC="$(CC)" \
	  SAN_FLAGS="$(SAN_FLAGS)" TSAN="$(TSAN)" sh tests/run.sh

test-cross: all
	ONLY=cross BUILD=$(BUILD) SHARED=$(SHARED) sh tests/run.sh

conformance: all
	BUILD=$(BUILD) SHARED=$(SHARED) sh tests/conformance.sh

VENV_PY := $(BUILD)/venv/bin/python

anchors: deps-anchors
	BUILD=$(BUILD) sh bench/anchors-venv.sh

bench: all mpi
	BUILD=$(BUILD) SHARED=$(SHARED) sh bench/run.sh

oracle: all anchors
	BUILD=$(BUILD) SHARED=$(SHARED) $(VENV_PY) tests/oracle/oracle.py
	BUILD=$(BUILD) SHARED=$(SHARED) $(VENV_PY) tests/oracle/conformance_xla.py
	BUILD=$(BUILD) SHARED=$(SHARED) $(VENV_PY) tests/oracle/dynamic_xla.py

N ?= 200
fuzz-diff: all anchors
	BUILD=$(BUILD) $(VENV_PY) tests/oracle/fuzz.py -n $(N)

clean:
	rm -rf build build-san build-tsan build-fuzz

include tests/fuzz/fuzz.mk

.PHONY: all runtime deps deps-anchors demo test test-cross conformance bench anchors oracle \
  fuzz-diff clean install uninstall mpi test-runtime
