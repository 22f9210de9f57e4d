# tests/fuzz/fuzz.mk: libFuzzer builds of the compiler; included by the Makefile.
#
#   make fuzz                          fuzz_frontend for FUZZ_SECONDS (default 60)
#   make fuzz FUZZER=pipeline          the whole-pipeline fuzzer instead
#   make fuzz FUZZ_SECONDS=3600 FUZZ_FLAGS=-jobs=2   longer, any libFuzzer flags
#   make fuzz-smoke                    every fuzzer for FUZZ_SMOKE_RUNS inputs from a
#                                      fixed seed and an empty corpus (deterministic:
#                                      a finding is reproducible, never a flake; at
#                                      most FUZZ_SMOKE_SECONDS each) and the
#                                      error-path leak check; fails on any finding
#   make fuzz-build                    build only
#   build-fuzz/fuzz_pipeline build-fuzz/crashes/crash-...   replay a finding
#
# Targets (tests/fuzz/README.md): fuzz_frontend parses and verifies;
# fuzz_pipeline runs the whole pipeline and codegen to a verified LLVM
# module. Our sources are compiled with clang-19 (installed here when
# missing, which needs root) with ASan, UBSan (fatal) and libFuzzer's
# coverage, into FUZZ_BUILD; LLVM itself is linked as it is.
# Seeds: the `// -----` cases of the conformance interpreter tests, the
# conformance testdata programs up to 32 KiB and tests/run/*.mlir, copied
# or split into build-fuzz/seeds/ at build time (never into the
# repository), plus the hand-written tests/fuzz/seeds/*.mlir. New inputs go
# to build-fuzz/corpus-<fuzzer>/, findings to build-fuzz/crashes/.

# Keep the including Makefile's default goal whatever the include's position.
fuzz_saved_goal := $(.DEFAULT_GOAL)

FUZZ_CC ?= clang-19
FUZZ_BUILD ?= build-fuzz
FUZZER ?= frontend
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 120
FUZZ_SMOKE_RUNS ?= 100000
FUZZ_FLAGS ?=
FUZZ_CORPUS ?= $(or $(SHARED),../shared)/conformance

FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -g -O1 -fno-omit-frame-pointer \
               -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_FRONT_SRC := $(wildcard ir/*.c frontend/*.c passes/*.c) runtime/elem.c
FUZZ_PIPE_SRC := $(FUZZ_FRONT_SRC) $(wildcard codegen/*.c) tools/driver.c
FUZZ_HEADERS := $(wildcard ir/*.h frontend/*.h passes/*.h codegen/*.h tools/*.h runtime/*.h)
FUZZ_PACKAGES := clang-19 libclang-rt-19-dev
# Same options for every run: findings are sanitizer reports, crashes,
# leaks, 10 s timeouts and 4 GiB of memory.
FUZZ_RUN_FLAGS := -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
                  -dict=tests/fuzz/mlir.dict -artifact_prefix=$(FUZZ_BUILD)/crashes/
FUZZ_ENV := ASAN_OPTIONS=$${ASAN_OPTIONS:-detect_leaks=1} \
            UBSAN_OPTIONS=$${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

fuzz: fuzz-build $(FUZZ_BUILD)/seeds/.split
	@mkdir -p $(FUZZ_BUILD)/corpus-$(FUZZER) $(FUZZ_BUILD)/crashes
	$(FUZZ_ENV) $(FUZZ_BUILD)/fuzz_$(FUZZER) -max_total_time=$(FUZZ_SECONDS) $(FUZZ_RUN_FLAGS) \
	  -max_len=32768 $(FUZZ_FLAGS) $(FUZZ_BUILD)/corpus-$(FUZZER) $(FUZZ_BUILD)/seeds

# The smoke run of `make test`: the error cases of tests/frontend and the
# verifier cases of tests/verify (one file per `// -----` case) replayed
# through the pipeline under LeakSanitizer (every error path frees what it
# built), then each fuzzer for FUZZ_SMOKE_RUNS inputs with -seed=1 from the
# seeds alone (a fresh corpus directory), so that every run of `make test`
# tries the same inputs; long exploratory runs are `make fuzz`.
fuzz-smoke: fuzz-build $(FUZZ_BUILD)/seeds/.split
	@rm -rf $(FUZZ_BUILD)/errors && mkdir -p $(FUZZ_BUILD)/errors $(FUZZ_BUILD)/crashes
	@cp tests/frontend/*.mlir $(FUZZ_BUILD)/errors/
	@for f in tests/verify/*.mlir; do \
	  awk -v out="$(FUZZ_BUILD)/errors/$$(basename $$f .mlir)" \
	    'BEGIN { n = 0; file = out "." n ".mlir" } \
	     /^\/\/ -----/ { close(file); n++; file = out "." n ".mlir"; next } \
	     { print > file }' "$$f"; \
	done
	$(FUZZ_ENV) $(FUZZ_BUILD)/fuzz_pipeline $(FUZZ_BUILD)/errors/*.mlir > $(FUZZ_BUILD)/errors.log 2>&1 \
	  || { tail -40 $(FUZZ_BUILD)/errors.log; exit 1; }
	@echo "fuzz-smoke: $$(ls $(FUZZ_BUILD)/errors | wc -l) error cases replayed, no leak"
	@for f in frontend pipeline; do \
	  rm -rf $(FUZZ_BUILD)/smoke-corpus-$$f && mkdir -p $(FUZZ_BUILD)/smoke-corpus-$$f; \
	  $(FUZZ_ENV) $(FUZZ_BUILD)/fuzz_$$f -seed=1 -runs=$(FUZZ_SMOKE_RUNS) \
	    -max_total_time=$(FUZZ_SMOKE_SECONDS) $(FUZZ_RUN_FLAGS) -max_len=32768 \
	    $(FUZZ_BUILD)/smoke-corpus-$$f $(FUZZ_BUILD)/seeds > $(FUZZ_BUILD)/smoke-$$f.log 2>&1 \
	    || { tail -60 $(FUZZ_BUILD)/smoke-$$f.log; exit 1; }; \
	  echo "fuzz-smoke: fuzz_$$f $$(grep -o 'stat::number_of_executed_units: [0-9]*' \
	    $(FUZZ_BUILD)/smoke-$$f.log | grep -o '[0-9]*$$') runs from seed 1, no finding"; \
	done

fuzz-build: fuzz-deps $(FUZZ_BUILD)/fuzz_frontend $(FUZZ_BUILD)/fuzz_pipeline

# Installs clang-19 and its libFuzzer/sanitizer runtimes (as root) when missing.
fuzz-deps:
	@missing=""; for p in $(FUZZ_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" != 0 ]; then echo "run as root or install:$$missing" >&2; exit 1; fi; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

$(FUZZ_BUILD)/fuzz_frontend: $(FUZZ_FRONT_SRC:%.c=$(FUZZ_BUILD)/%.o) $(FUZZ_BUILD)/tests/fuzz/fuzz_frontend.o
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $^ -lm

$(FUZZ_BUILD)/fuzz_pipeline: $(FUZZ_PIPE_SRC:%.c=$(FUZZ_BUILD)/%.o) $(FUZZ_BUILD)/tests/fuzz/fuzz_pipeline.o
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $^ $(LLVM_LIBS) -lm

$(FUZZ_BUILD)/tests/fuzz/fuzz_frontend.o $(FUZZ_BUILD)/tests/fuzz/fuzz_pipeline.o: tests/fuzz/fuzz_input.h

$(FUZZ_BUILD)/%.o: %.c $(FUZZ_HEADERS) | fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(LLVM_CFLAGS) -I. -c $< -o $@

# One seed file per `// -----` case (a whole multi-case file is one module
# with duplicate functions, which the parser rejects early).
$(FUZZ_BUILD)/seeds/.split: $(wildcard tests/fuzz/seeds/*.mlir tests/run/*.mlir tests/bytecode/*.mlirbc)
	@test -d $(FUZZ_CORPUS)/interpret || { echo "fuzz: no seeds in $(FUZZ_CORPUS)" >&2; exit 1; }
	@rm -rf $(FUZZ_BUILD)/seeds && mkdir -p $(FUZZ_BUILD)/seeds
	@for f in $(FUZZ_CORPUS)/interpret/*.mlir; do \
	  awk -v out="$(FUZZ_BUILD)/seeds/$$(basename $$f .mlir)" \
	    'BEGIN { n = 0; file = out "." n ".mlir" } \
	     /^\/\/ -----/ { close(file); n++; file = out "." n ".mlir"; next } \
	     { print > file }' "$$f"; \
	done
	@find $(FUZZ_CORPUS)/testdata -name '*.mlir' -size -32k -exec cp {} $(FUZZ_BUILD)/seeds/ \;
	@cp tests/fuzz/seeds/*.mlir $(FUZZ_BUILD)/seeds/
	@cp tests/bytecode/*.mlirbc $(FUZZ_BUILD)/seeds/
	@for f in tests/run/*.mlir; do cp $$f $(FUZZ_BUILD)/seeds/run_$$(basename $$f); done
	@touch $@
	@echo "fuzz: $$(ls $(FUZZ_BUILD)/seeds | wc -l) seeds from $(FUZZ_CORPUS) and tests/"

fuzz-clean:
	rm -rf $(FUZZ_BUILD)

.PHONY: fuzz fuzz-smoke fuzz-build fuzz-deps fuzz-clean

.DEFAULT_GOAL := $(fuzz_saved_goal)
