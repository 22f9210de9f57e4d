// ERROR: inferred shape of result #0 is out of range (C25-C26)
// ERROR: inferred_shape_out_of_range.mlir:7:8: error:
// Found by fuzz_frontend: a convolution whose lhs_dilation makes the
// inferred spatial size exceed what a tensor may hold reached type_tensor's
// assertion; the verifier now reports it.
func.func @main(%x: tensor<1x1x1024x1xf32>, %w: tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {lhs_dilate = [1, 9223372036854775807]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x1024x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  func.return %0 : tensor<1x1x1x1xf32>
}
