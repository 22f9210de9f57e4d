// dynamic_conv's verifier (spec "dynamic_conv"): convolution's constraints
// with the padding an operand. Two window_strides for one spatial
// dimension (C2, as testdata/dynamic's conv_general_dilated_1d_stride_2_odd
// has), padding of shape [2, 2] for one spatial dimension (C4), padding
// of a float type (I3), a kernel of the wrong input features (C14).
// ERROR: dynamic_conv_invalid.mlir:11:8: error: stablehlo.dynamic_conv: window_strides must have 1 elements, has 2 (C2)
// ERROR: dynamic_conv_invalid.mlir:16:8: error: stablehlo.dynamic_conv: padding must have shape [1, 2], got 'tensor<2x2xi64>' (C4)
// ERROR: dynamic_conv_invalid.mlir:21:8: error: stablehlo.dynamic_conv: padding must be a 2-dimensional tensor of integer type, got 'tensor<1x2xf32>' (I3)
// ERROR: dynamic_conv_invalid.mlir:26:8: error: stablehlo.dynamic_conv: kernel input feature size 3 must be 2 (C14)
func.func @strides(%x: tensor<1x?x2xf32>, %k: tensor<4x2x2xf32>, %p: tensor<1x2xi64>) -> tensor<1x?x2xf32> {
  %0 = "stablehlo.dynamic_conv"(%x, %k, %p) {window_strides = array<i64: 2, 2>, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x2xf32>, tensor<4x2x2xf32>, tensor<1x2xi64>) -> tensor<1x?x2xf32>
  func.return %0 : tensor<1x?x2xf32>
}

func.func @padding_shape(%x: tensor<1x?x2xf32>, %k: tensor<4x2x2xf32>, %p: tensor<2x2xi64>) -> tensor<1x?x2xf32> {
  %0 = "stablehlo.dynamic_conv"(%x, %k, %p) {dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x2xf32>, tensor<4x2x2xf32>, tensor<2x2xi64>) -> tensor<1x?x2xf32>
  func.return %0 : tensor<1x?x2xf32>
}

func.func @padding_type(%x: tensor<1x?x2xf32>, %k: tensor<4x2x2xf32>, %p: tensor<1x2xf32>) -> tensor<1x?x2xf32> {
  %0 = "stablehlo.dynamic_conv"(%x, %k, %p) {dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x2xf32>, tensor<4x2x2xf32>, tensor<1x2xf32>) -> tensor<1x?x2xf32>
  func.return %0 : tensor<1x?x2xf32>
}

func.func @features(%x: tensor<1x?x2xf32>, %k: tensor<4x3x2xf32>, %p: tensor<1x2xi64>) -> tensor<1x?x2xf32> {
  %0 = "stablehlo.dynamic_conv"(%x, %k, %p) {dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x2xf32>, tensor<4x3x2xf32>, tensor<1x2xi64>) -> tensor<1x?x2xf32>
  func.return %0 : tensor<1x?x2xf32>
}
