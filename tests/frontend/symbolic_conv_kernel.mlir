// A convolution whose kernel has a symbolic size is not compiled on
// symbolic sizes (its generator's window loops take static kernel sizes):
// an error at its location naming the reason.
// ERROR: symbolic_conv_kernel.mlir:6:8: error: stablehlo.convolution: the kernel has symbolic sizes; specialize the program with --input-shapes or --dim
func.func public @main(%x: tensor<1x8x2xf32>, %k: tensor<?x2x2xf32>) -> tensor<1x?x2xf32> {
  %c = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x2xf32>, tensor<?x2x2xf32>) -> tensor<1x?x2xf32>
  return %c : tensor<1x?x2xf32>
}
