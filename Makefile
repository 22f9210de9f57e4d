# shloc: StableHLO ahead-of-time compiler.
#   make          build build/shloc and build/libshlort.a
#   make demo     install what is missing, build, compile and run the MNIST example
#   make test     install what is missing, build, run every test
#   make conformance  the conformance scoreboard (writes build/conformance/)
#   make SAN=1    address + undefined-behaviour sanitizer build (build-san/);
#                 `make SAN=1 test` runs the suite on it
#   make TSAN=1   thread sanitizer build with clang-19 and libomp (build-tsan/);
#                 `make TSAN=1 test` runs the stages that use threads
#   make fuzz     libFuzzer on the frontend and verifier (tests/fuzz/fuzz.mk)

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
# TSan with LLVM's OpenMP runtime: libomp loads its Archer tool
# (libarcher.so, named by OMP_TOOL_LIBRARIES: tests/run.py sets it, as
# Debian keeps it off the loader path), and Archer tells TSan
# about the synchronization inside the runtime (fork/join barriers, task
# dependencies), which libgomp, built without TSan, hides: GCC's TSan build
# reports false races on every parallel region. So TSAN=1 builds with
# clang-19, whose -fopenmp links libomp (libomp-19-dev).
ifeq ($(TSAN),1)
  SAN_FLAGS := -fsanitize=thread -fno-omit-frame-pointer
  CC := clang-19
  BUILD := build-tsan
endif
OPT := $(if $(SAN_FLAGS),-O1 $(SAN_FLAGS),-O2)
LLVM_CFLAGS = $(shell $(LLVM_CONFIG) --cflags 2>/dev/null)
LLVM_LIBS = $(shell $(LLVM_CONFIG) --ldflags --libs core orcjit native passes target mc analysis 2>/dev/null) \
            $(shell $(LLVM_CONFIG) --system-libs 2>/dev/null)
CFLAGS := $(CFLAGS_BASE) $(OPT)

COMPILER_SRC := $(wildcard ir/*.c frontend/*.c passes/*.c codegen/*.c tools/*.c)
RUNTIME_SRC := $(wildcard runtime/*.c)
COMPILER_OBJ := $(COMPILER_SRC:%.c=$(BUILD)/%.o)
RUNTIME_OBJ := $(RUNTIME_SRC:%.c=$(BUILD)/%.o)
HEADERS := $(wildcard ir/*.h frontend/*.h passes/*.h codegen/*.h runtime/*.h tools/*.h)

SHLOC := $(BUILD)/shloc
SHLORT := $(BUILD)/libshlort.a

all: $(SHLOC) $(SHLORT)

$(BUILD)/runtime/%.o: runtime/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -fopenmp -c $< -o $@

$(BUILD)/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LLVM_CFLAGS) -c $< -o $@

$(SHLORT): $(RUNTIME_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# The tool JIT-compiles generated code that calls the runtime, so the
# runtime is linked whole and its symbols exported (-rdynamic).
$(SHLOC): $(COMPILER_OBJ) $(SHLORT)
	$(CC) $(OPT) -rdynamic -o $@ $(COMPILER_OBJ) -Wl,--whole-archive $(SHLORT) -Wl,--no-whole-archive \
	  $(LLVM_LIBS) -fopenmp -lm

# Installs the Debian packages the build and tests need (as root), only
# when something is missing.
DEB_PACKAGES := llvm-19-dev llvm-19-tools libdnnl-dev libopenblas-dev python3 python3-numpy gcc make
# clang-19 with its sanitizer and libFuzzer runtimes (make fuzz-smoke in
# make test; make fuzz) and LLVM's OpenMP runtime (make TSAN=1).
DEB_PACKAGES += clang-19 libclang-rt-19-dev libomp-19-dev
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" != 0 ]; then echo "run as root or install:$$missing" >&2; exit 1; fi; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

demo: deps
	$(MAKE) all
	$(MAKE) -C examples/mnist run SHLOC=$(abspath $(SHLOC))
	$(MAKE) -C examples/threads run SHLOC=$(abspath $(SHLOC)) SHLORT=$(abspath $(SHLORT))

test: deps
	$(MAKE) all
	BUILD=$(BUILD) SHARED=$(SHARED) LLVM_CONFIG=$(LLVM_CONFIG) CC="$(CC)" \
	  SAN_FLAGS="$(SAN_FLAGS)" TSAN="$(TSAN)" sh tests/run.sh

conformance: all
	BUILD=$(BUILD) SHARED=$(SHARED) sh tests/conformance.sh

bench: all
	BUILD=$(BUILD) sh bench/run.sh

clean:
	rm -rf build build-san build-tsan build-fuzz

include tests/fuzz/fuzz.mk

.PHONY: all deps demo test conformance bench clean
