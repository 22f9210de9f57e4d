func.func @main(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<1x4x8x4xf32> {
  %r = stablehlo.convolution(%x, %k)
      dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
      window = {stride = [2, 1], pad = [[0, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]}
      {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}
      : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x8x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %w = "stablehlo.reduce_window"(%r, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<1x4x8x4xf32>, tensor<f32>) -> tensor<1x4x8x4xf32>
  func.return %w : tensor<1x4x8x4xf32>
}
