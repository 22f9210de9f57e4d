// reduce_window on a symbolic batch (--symbolic; tests/run.py also runs it
// specialized). Expected values from numpy (the spec's padded, dilated
// input walked window by window) for x = 3x4 iota + 1: a sum with window
// 2x3, padding [[0, 1], [1, 1]] and base dilation 2 along the symbolic
// dimension (2 * 3 - 1 + 1 - 2 + 1 = 5 rows); a max with window 2x2,
// strides [2, 1], padding [[1, 0], [0, 0]] and window dilation 2 along
// dimension 1.
// RUN-ARGS: --symbolic --input="3x4xf32=1 2 3 4 5 6 7 8 9 10 11 12"
// OUTPUT: 5x4xf32=[[3 6 9 7][11 18 21 15][11 18 21 15][19 30 33 23][19 30 33 23]]
// OUTPUT: 2x2xf32=[[3 4][11 12]]
func.func public @main(%x: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x2xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %s = "stablehlo.reduce_window"(%x, %zero) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {window_dimensions = array<i64: 2, 3>, base_dilations = array<i64: 2, 1>, padding = dense<[[0, 1], [1, 1]]> : tensor<2x2xi64>} : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
  %m = "stablehlo.reduce_window"(%x, %ninf) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 1>, window_dilations = array<i64: 1, 2>, padding = dense<[[1, 0], [0, 0]]> : tensor<2x2xi64>} : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x2xf32>
  return %s, %m : tensor<?x4xf32>, tensor<?x2xf32>
}
