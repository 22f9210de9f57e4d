// dynamic_conv on symbolic sizes whose padding is data (an argument), not
// a function of the sizes: a located error with --symbolic (no fallback).
// RUN-ARGS: --symbolic --input="1x3x1xf32=1 2 3" --input="1x2xi64=1 1"
// ERROR: symbolic_dynamic_conv_padding_data.mlir:8:8: error: stablehlo.dynamic_conv: the padding does not fold to sizes
func.func public @main(%x: tensor<1x?x1xf32>, %p: tensor<1x2xi64>) -> tensor<1x?x1xf32> {
  %k = stablehlo.constant dense<1.0> : tensor<2x1x1xf32>
  // the padding is read from %p
  %0 = "stablehlo.dynamic_conv"(%x, %k, %p) {dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x1xf32>, tensor<2x1x1xf32>, tensor<1x2xi64>) -> tensor<1x?x1xf32>
  func.return %0 : tensor<1x?x1xf32>
}
