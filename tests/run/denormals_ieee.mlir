// The default (IEEE) keeps denormal inputs and results: the same program
// as run/denormals_flush.mlir, without --denormals=flush.
// RUN-ARGS: --input="4xf32=1e-39 1e-20 1 2" --input="4xf32=1 1e-20 1e-39 3"
// OUTPUT: 4xf32=[1e-39 1e-40 1e-39 6]
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.multiply %x, %y : tensor<4xf32>
  return %0 : tensor<4xf32>
}
