# shloc: StableHLO ahead-of-time compiler.
#   make          build build/shloc and build/libshlort.a
#   make demo     install what is missing, build, compile and run the MNIST example
#   make test     install what is missing, build, run every test
#   make conformance  the conformance scoreboard (writes build/conformance/)
#   make SAN=1    address + undefined-behaviour sanitizer build
#   make fuzz     libFuzzer on the frontend and verifier (tests/fuzz/fuzz.mk)
#   make anchors  build/venv: jax/jaxlib, onnxruntime, onnx, torch for the bench and oracle
#   make bench    C benchmarks; with build/venv also shloc beside XLA, ORT, PyTorch per model
#   make oracle   every model and conformance program through shloc and XLA (build/oracle/)
#   make fuzz-diff N=200  differential fuzzing: shloc -O0, -O3 and XLA on random programs

LLVM_CONFIG ?= llvm-config-19
CC ?= cc
BUILD ?= build
SHARED ?= ../shared

CFLAGS_BASE := -std=c11 -D_GNU_SOURCE -Wall -Wextra -g
ifeq ($(SAN),1)
  OPT := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer
  BUILD := build-san
else
  OPT := -O2
endif
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
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" != 0 ]; then echo "run as root or install:$$missing" >&2; exit 1; fi; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

# Only for the anchors' virtual environment (make anchors).
ANCHORS_DEB_PACKAGES := python3-venv
deps-anchors:
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(ANCHORS_DEB_PACKAGES)"

demo: deps
	$(MAKE) all
	$(MAKE) -C examples/mnist run SHLOC=$(abspath $(SHLOC))
	$(MAKE) -C examples/threads run SHLOC=$(abspath $(SHLOC)) SHLORT=$(abspath $(SHLORT))

test: deps
	$(MAKE) all
	BUILD=$(BUILD) SHARED=$(SHARED) LLVM_CONFIG=$(LLVM_CONFIG) sh tests/run.sh

conformance: all
	BUILD=$(BUILD) SHARED=$(SHARED) sh tests/conformance.sh

VENV_PY := $(BUILD)/venv/bin/python

anchors: deps-anchors
	BUILD=$(BUILD) sh bench/anchors-venv.sh

bench: all
	BUILD=$(BUILD) SHARED=$(SHARED) sh bench/run.sh

oracle: all anchors
	BUILD=$(BUILD) SHARED=$(SHARED) $(VENV_PY) tests/oracle/oracle.py
	BUILD=$(BUILD) SHARED=$(SHARED) $(VENV_PY) tests/oracle/conformance_xla.py

N ?= 200
fuzz-diff: all anchors
	BUILD=$(BUILD) $(VENV_PY) tests/oracle/fuzz.py -n $(N)

clean:
	rm -rf build build-san build-fuzz

include tests/fuzz/fuzz.mk

.PHONY: all deps deps-anchors demo test conformance bench anchors oracle fuzz-diff clean
