// spec "select_and_scatter": the gradient of a 2x2 stride-1 max pool.
// Each source element goes to the maximum of its window; among equal
// maxima the first in window order wins (select = GE keeps the current
// choice), and overlapping windows that pick the same element add up.
// RUN-ARGS: --input="3x3xf32=1 3 3 2 3 0 4 0 1" --input="2x2xf32=1 2 3 4"
// OUTPUT: 3x3xf32=[[0 3 0][0 4 0][3 0 0]]
func.func @main(%x: tensor<3x3xf32>, %dy: tensor<2x2xf32>) -> tensor<3x3xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.select_and_scatter"(%x, %dy, %zero) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%acc: tensor<f32>, %g: tensor<f32>):
    %sum = stablehlo.add %acc, %g : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 1, 1>} : (tensor<3x3xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}
