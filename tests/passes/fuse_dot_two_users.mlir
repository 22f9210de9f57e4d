// A dot_general with two uses is no GEMM epilogue source: it keeps a
// buffer, which cannot overlap its operand's (the negate dies at the dot,
// but intervals are closed).
// Its GEMM kernel gets scratch in the arena (Bp and the row pointers,
// sized for AVX2 by the pinned target), live only while it runs.
// ARGS: --target=x86_64-linux-gnu --features=+avx2,+fma
func.func @main(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %n = stablehlo.negate %x : tensor<4x4xf32>
  %d = stablehlo.dot_general %n, %w, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = stablehlo.add %d, %d : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
