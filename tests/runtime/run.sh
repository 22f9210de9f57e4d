#!/bin/sh
# The runtime's tests: every tests/runtime/test_*.c linked with
# $BUILD/libshlort.a (threads), then, when mpirun and $BUILD/libshlort_mpi.a
# exist, every tests/runtime/mpi_*.c linked with the MPI build and run
# under `mpirun -np 4` on loopback. Each test prints `N passed, N failed`;
# this prints PASS/FAIL per test and closes with the tally of tests.
# Environment: BUILD, CC, MPICC, CFLAGS (the build's, sanitizers included).
BUILD=${BUILD:-build}
CC=${CC:-cc}
MPICC=${MPICC:-mpicc}
CFLAGS=${CFLAGS:--std=c11 -D_GNU_SOURCE -Wall -Wextra -O2 -g}
here=$(dirname "$0")
out=$BUILD/tests/runtime
mkdir -p "$out"
pass=0
fail=0

# check NAME LOG: the test passed when it exited 0 and its last tally shows
# no failure.
check() {
  tally=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$2" | tail -1)
  if [ "$3" = 0 ] && [ -n "$tally" ] && [ "${tally#* passed, }" = "0 failed" ]; then
    echo "PASS runtime/$1 (${tally%% passed*} checks)"
    pass=$((pass + 1))
  else
    echo "FAIL runtime/$1"
    tail -n 30 "$2"
    fail=$((fail + 1))
  fi
}

# build_run NAME SOURCE... : links SOURCE... with the archive, runs it.
build_run() {
  name=$1
  shift
  if ! $CC $CFLAGS -I"$here/../../runtime" "$@" "$BUILD/libshlort.a" -pthread -lm \
      -o "$out/$name" 2>"$out/$name.log"; then
    check "$name" "$out/$name.log" 1
    return
  fi
  timeout 600 "$out/$name" >"$out/$name.log" 2>&1
  check "$name" "$out/$name.log" $?
}

for src in "$here"/test_*.c; do
  build_run "$(basename "$src" .c)" "$src"
done
# test_parallel again with the trace build of parallel.c in place of the
# archive's, whose counters its slow-worker check reads.
build_run test_parallel_trace "$here/test_parallel.c" -DSHLORT_TRACE "$here/../../runtime/parallel.c"

# mpirun refuses root without these; 4 ranks on 2 cores need oversubscribing.
if command -v mpirun >/dev/null 2>&1 && [ -f "$BUILD/libshlort_mpi.a" ]; then
  root=""
  [ "$(id -u)" = 0 ] && root="--allow-run-as-root"
  for src in "$here"/mpi_*.c; do
    [ -f "$src" ] || continue
    name=$(basename "$src" .c)
    if ! $MPICC $CFLAGS -I"$here/../../runtime" "$src" "$BUILD/libshlort_mpi.a" \
        -pthread -lm -o "$out/$name" 2>"$out/$name.log"; then
      check "$name" "$out/$name.log" 1
      continue
    fi
    # Open MPI's own allocations at MPI_Finalize read as leaks under ASan
    # (make SAN=1); the threads tests cover the runtime's memory.
    timeout 600 mpirun $root --oversubscribe -x ASAN_OPTIONS=detect_leaks=0 -np 4 \
      "$out/$name" >"$out/$name.log" 2>&1
    check "$name" "$out/$name.log" $?
  done
  # The MPI build's results are the threads build's, bit for bit: every
  # digest line of the MPI run must appear in the threads run.
  if [ -f "$out/mpi_collectives.log" ]; then
    grep '^digest' "$out/mpi_collectives.log" | sort -u >"$out/digests.mpi"
    grep -F -x -f "$out/digests.mpi" "$out/test_collectives.log" | sort -u >"$out/digests.same"
    if [ -s "$out/digests.mpi" ] && cmp -s "$out/digests.mpi" "$out/digests.same"; then
      echo "PASS runtime/mpi = threads ($(wc -l <"$out/digests.mpi") process digests)"
      pass=$((pass + 1))
    else
      echo "FAIL runtime/mpi = threads: digests differ"
      diff "$out/digests.mpi" "$out/digests.same"
      fail=$((fail + 1))
    fi
  fi
else
  echo "NOTICE runtime: mpirun or $BUILD/libshlort_mpi.a missing, MPI tests skipped"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
