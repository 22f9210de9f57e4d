// The layout pass leaves a constant B of the skinny path (at most 8 rows)
// in place for one thread on AVX-512, where the in-place path was the
// faster one (gemm.c's tile table, serial_packed; on AVX2 it packs:
// layout_packed_weights.mlir): %s is not packed.
// ARGS: --target=x86_64-linux-gnu --cpu=znver4 --threads=1
func.func @main(%y: tensor<4x200xf32>) -> tensor<4x50xf32> {
  %s = stablehlo.constant dense<2.0> : tensor<200x50xf32>
  %0 = stablehlo.dot_general %y, %s, contracting_dims = [1] x [0] : (tensor<4x200xf32>, tensor<200x50xf32>) -> tensor<4x50xf32>
  return %0 : tensor<4x50xf32>
}
