#!/bin/sh
# Symbolic sizes against specialization (issue 7): each program compiled
# once with `?` sizes (codegen/dyndims.c) and once specialized to the batch
# by --input-shapes, called alternately on the same inputs by
# `shloc bench --symbolic`, which prints both latencies and their ratio
# (1 = as fast as the specialized program). Batches 1, 64 and 1024 for
# the MLPs, 1, 8 and 32 for the CNN (cnn.mlir, export_cnn.py).
set -e
BUILD=${BUILD:-build}
here=$(dirname "$0")
for b in 1 64 1024; do
  echo "== examples/dynamic_mlp, batch $b"
  "$BUILD/shloc" bench "$here/../../examples/dynamic_mlp/dynamic_mlp.mlir" --symbolic \
    --input-shapes=8x16xf32,16xf32,16x4xf32,4xf32,${b}x8xf32 --iterations=2000
done
for b in 1 64 1024; do
  echo "== mlp_512, batch $b"
  "$BUILD/shloc" bench "$here/mlp_512.mlir" --symbolic --iterations=$((b < 1024 ? 200 : 20)) \
    --input-shapes=512x1024xf32,1024xf32,1024x1024xf32,1024xf32,1024x256xf32,256xf32,${b}x512xf32
done
S=3x3x3x32xf32,32xf32,3x3x32x64xf32,64xf32,3x3x64x128xf32,128xf32,128x10xf32,10xf32
for b in 1 8 32; do
  echo "== cnn, batch $b"
  "$BUILD/shloc" bench "$here/cnn.mlir" --symbolic --iterations=$((b < 32 ? 200 : 50)) \
    --input-shapes=$S,${b}x32x32x3xf32
done
