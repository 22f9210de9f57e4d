#!/bin/sh
# Runs the benchmarks and their anchors in the same run and prints ratios.
# Threads: OMP_NUM_THREADS / OPENBLAS_NUM_THREADS pinned to 1 so that the
# anchors and shloc's single-threaded code are compared like for like.
set -e
BUILD=${BUILD:-build}
here=$(dirname "$0")
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 DNNL_NUM_THREADS=1
cc -O3 -march=native -fopenmp "$here/anchors.c" -o "$BUILD/bench_anchors" \
  -I/usr/include/x86_64-linux-gnu/openblas-pthread -lopenblas -ldnnl -lm
"$BUILD/bench_anchors" | tee "$BUILD/bench_anchors.txt"
for f in "$here"/*.mlir; do
  echo "== $(basename "$f")"
  "$BUILD/shloc" bench "$f" | tee "$BUILD/bench_$(basename "$f" .mlir).txt"
done
python3 "$here/ratios.py" "$BUILD"

# Symbolic sizes beside the same programs specialized (bench/symbolic).
"$here/symbolic/run.sh" | tee "$BUILD/bench_symbolic.txt"

# Collectives: all_reduce over threads (libshlort.a) beside memcpy, and
# over MPI (libshlort_mpi.a, -np 4 on loopback) beside MPI_Allreduce; each
# prints its own same-run ratios.
cc -O3 -march=native -I"$here/../runtime" "$here/collectives.c" "$BUILD/libshlort.a" \
  -fopenmp -pthread -lm -o "$BUILD/bench_collectives"
"$BUILD/bench_collectives" | tee "$BUILD/bench_collectives.txt"
if command -v mpirun >/dev/null 2>&1 && [ -f "$BUILD/libshlort_mpi.a" ]; then
  root=""
  [ "$(id -u)" = 0 ] && root="--allow-run-as-root"
  mpicc -O3 -march=native -I"$here/../runtime" "$here/collectives_mpi.c" \
    "$BUILD/libshlort_mpi.a" -fopenmp -pthread -lm -o "$BUILD/bench_collectives_mpi"
  mpirun $root --oversubscribe -np 4 "$BUILD/bench_collectives_mpi" |
    tee "$BUILD/bench_collectives_mpi.txt"
fi

# Whole models beside XLA, ONNX Runtime and PyTorch (bench/compare.py), when
# `make anchors` has made the virtual environment.
if [ -x "$BUILD/venv/bin/python" ]; then
  "$BUILD/venv/bin/python" "$here/compare.py"
else
  echo "anchors missing: run 'make anchors' for the model comparison with XLA, ONNX Runtime and PyTorch"
fi
