// Verifier tests for convolution (spec example and constraints).

func.func @conv_spec_example(%lhs: tensor<1x4x4x1xi64>, %rhs: tensor<3x3x1x1xi64>) -> tensor<1x2x2x1xi64> {
  %0 = stablehlo.convolution(%lhs, %rhs)
         dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
         window = {stride = [4, 4], pad = [[0, 0], [0, 0]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]}
         {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}
       : (tensor<1x4x4x1xi64>, tensor<3x3x1x1xi64>) -> tensor<1x2x2x1xi64>
  func.return %0 : tensor<1x2x2x1xi64>
}

// -----

func.func @conv_nchw_grouped(%lhs: tensor<2x6x10x10xf32>, %rhs: tensor<4x3x3x3xf32>) -> tensor<2x4x8x8xf32> {
  %0 = stablehlo.convolution(%lhs, %rhs)
         dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1],
         window = {}
         {batch_group_count = 1 : i64, feature_group_count = 2 : i64}
       : (tensor<2x6x10x10xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x8x8xf32>
  func.return %0 : tensor<2x4x8x8xf32>
}

// -----

func.func @conv_c1_rank(%lhs: tensor<1x4x4x1xf32>, %rhs: tensor<3x3x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{(C1)}}
  %0 = "stablehlo.convolution"(%lhs, %rhs) {
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64
  } : (tensor<1x4x4x1xf32>, tensor<3x3x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @conv_c3_stride(%lhs: tensor<1x4x4x1xf32>, %rhs: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{window_strides must be positive, got 0 (C3)}}
  %0 = "stablehlo.convolution"(%lhs, %rhs) {
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    window_strides = array<i64: 0, 1>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64
  } : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @conv_c14_features(%lhs: tensor<1x4x4x2xf32>, %rhs: tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{kernel input feature size 1 must be 2 (C14)}}
  %0 = "stablehlo.convolution"(%lhs, %rhs) {
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64
  } : (tensor<1x4x4x2xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @conv_c23_groups(%lhs: tensor<2x4x4x2xf32>, %rhs: tensor<3x3x1x2xf32>) -> tensor<1x2x2x2xf32> {
  // expected-error@+1 {{(C23)}}
  %0 = "stablehlo.convolution"(%lhs, %rhs) {
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    feature_group_count = 2 : i64, batch_group_count = 2 : i64
  } : (tensor<2x4x4x2xf32>, tensor<3x3x1x2xf32>) -> tensor<1x2x2x2xf32>
  func.return %0 : tensor<1x2x2x2xf32>
}

// -----

func.func @conv_c25_result(%lhs: tensor<1x4x4x1xf32>, %rhs: tensor<3x3x1x1xf32>) -> tensor<1x4x4x1xf32> {
  // expected-error@+1 {{incompatible with result type 'tensor<1x4x4x1xf32>' (C25-C26)}}
  %0 = "stablehlo.convolution"(%lhs, %rhs) {
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64
  } : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x4x4x1xf32>
  func.return %0 : tensor<1x4x4x1xf32>
}

// -----

func.func @conv_c27_elements(%lhs: tensor<1x4x4x1xf32>, %rhs: tensor<3x3x1x1xf16>) -> tensor<1x2x2x1xf32> {
  // expected-error@+1 {{different element types (C27)}}
  %0 = "stablehlo.convolution"(%lhs, %rhs) {
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    feature_group_count = 1 : i64, batch_group_count = 1 : i64
  } : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf16>) -> tensor<1x2x2x1xf32>
  func.return %0 : tensor<1x2x2x1xf32>
}
