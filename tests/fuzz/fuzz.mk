# tests/fuzz/fuzz.mk: libFuzzer build of the frontend; included by the Makefile.
#
#   make fuzz                      build, then fuzz for FUZZ_SECONDS (default 60)
#   make fuzz FUZZ_SECONDS=600     longer
#   make fuzz FUZZ_FLAGS=-jobs=4   any extra libFuzzer flags
#   make fuzz-build                build only
#   build-fuzz/fuzz_frontend build-fuzz/crashes/crash-...   replay a finding
#
# The target (tests/fuzz/fuzz_frontend.c) parses each input with
# parse_module and verifies what parses. The ir/, frontend/ and passes/
# sources are compiled with clang-19 (installed here when missing, which
# needs root) with ASan, UBSan and libFuzzer's coverage, into FUZZ_BUILD.
# Seeds: the `// -----` cases of the conformance interpreter tests, split
# into build-fuzz/seeds/ (never copied into the repository), plus the
# hand-written tests/fuzz/seeds/*.mlir for syntax those tests lack (see
# tests/fuzz/README.md). New inputs go to build-fuzz/corpus/, findings to
# build-fuzz/crashes/.

# Keep the including Makefile's default goal whatever the include's position.
fuzz_saved_goal := $(.DEFAULT_GOAL)

FUZZ_CC ?= clang-19
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_FLAGS ?=
FUZZ_SEEDS ?= $(or $(SHARED),../shared)/conformance/interpret

FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -g -O1 -fno-omit-frame-pointer \
               -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZ_LIB_SRC := $(wildcard ir/*.c frontend/*.c passes/*.c)
FUZZ_OBJ := $(FUZZ_LIB_SRC:%.c=$(FUZZ_BUILD)/%.o) $(FUZZ_BUILD)/tests/fuzz/fuzz_frontend.o
FUZZ_HEADERS := $(wildcard ir/*.h frontend/*.h passes/*.h)
FUZZ_PACKAGES := clang-19 libclang-rt-19-dev

fuzz: fuzz-build $(FUZZ_BUILD)/seeds/.split
	@mkdir -p $(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/crashes
	ASAN_OPTIONS=$${ASAN_OPTIONS:-abort_on_error=0} \
	UBSAN_OPTIONS=$${UBSAN_OPTIONS:-print_stacktrace=1} \
	  $(FUZZ_BUILD)/fuzz_frontend -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
	  -rss_limit_mb=4096 -max_len=16384 -print_final_stats=1 \
	  -dict=tests/fuzz/mlir.dict -artifact_prefix=$(FUZZ_BUILD)/crashes/ $(FUZZ_FLAGS) \
	  $(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/seeds

fuzz-build: fuzz-deps $(FUZZ_BUILD)/fuzz_frontend

# Installs clang-19 and its libFuzzer/sanitizer runtimes (as root) when missing.
fuzz-deps:
	@missing=""; for p in $(FUZZ_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" != 0 ]; then echo "run as root or install:$$missing" >&2; exit 1; fi; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

$(FUZZ_BUILD)/fuzz_frontend: $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $^ -lm

$(FUZZ_BUILD)/%.o: %.c $(FUZZ_HEADERS) | fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -I. -c $< -o $@

# One seed file per `// -----` case (a whole multi-case file is one module
# with duplicate functions, which the parser rejects early).
$(FUZZ_BUILD)/seeds/.split: $(wildcard tests/fuzz/seeds/*.mlir tests/bytecode/*.mlirbc)
	@test -d $(FUZZ_SEEDS) || { echo "fuzz: no seeds in $(FUZZ_SEEDS)" >&2; exit 1; }
	@rm -rf $(FUZZ_BUILD)/seeds && mkdir -p $(FUZZ_BUILD)/seeds
	@for f in $(FUZZ_SEEDS)/*.mlir; do \
	  awk -v out="$(FUZZ_BUILD)/seeds/$$(basename $$f .mlir)" \
	    'BEGIN { n = 0; file = out "." n ".mlir" } \
	     /^\/\/ -----/ { close(file); n++; file = out "." n ".mlir"; next } \
	     { print > file }' "$$f"; \
	done
	@cp tests/fuzz/seeds/*.mlir $(FUZZ_BUILD)/seeds/
	@cp tests/bytecode/*.mlirbc $(FUZZ_BUILD)/seeds/
	@touch $@
	@echo "fuzz: $$(ls $(FUZZ_BUILD)/seeds | wc -l) seed cases from $(FUZZ_SEEDS)"

fuzz-clean:
	rm -rf $(FUZZ_BUILD)

.PHONY: fuzz fuzz-build fuzz-deps fuzz-clean

.DEFAULT_GOAL := $(fuzz_saved_goal)
