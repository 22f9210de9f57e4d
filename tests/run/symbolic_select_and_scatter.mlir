// select_and_scatter on symbolic sizes (--symbolic; tests/run.py also runs it
// specialized) of a fused operand, -x: the minimum of x per window (first of
// equals) gets the source value, added to init 1. Window 2x3, strides 2x2,
// padding [[1, 0], [0, 1]] (the first row of windows and the last column
// reach into it): the source has floor((n - 1) / 2) + 1 rows and
// floor((m - 2) / 2) + 1 columns, checked at entry (spec C2).
// A 5x6 operand, a 3x3 source.
// Written by gen_symbolic_select_and_scatter.py (numpy 1.24.2 values).
// RUN-ARGS: --symbolic
// RUN-ARGS: --input="5x6xf32=4 1 1 1 1 4 4 3 1 1 2 2 3 2 2 1 3 3 1 1 2 2 4 3 2 2 3 3 1 3"
// RUN-ARGS: --input="3x3xf32=7 9 8 3 3 6 6 7 8"
// OUTPUT: 5x6xf32=[[1 8 10 1 9 1][1 1 7 1 7 1][1 1 1 1 1 1][7 1 1 1 1 1][1 1 1 1 16 1]]
func.func public @main(%a0: tensor<?x?xf32>, %a1: tensor<?x?xf32>) -> (tensor<?x?xf32>) {
  %v1 = stablehlo.negate %a0 : tensor<?x?xf32>
  %v2 = stablehlo.constant dense<1.0> : tensor<f32>
  %v3 = "stablehlo.select_and_scatter"(%v1, %a1, %v2) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%acc: tensor<f32>, %g: tensor<f32>):
    %sum = stablehlo.add %acc, %g : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) {window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>, padding = dense<[[1, 0], [0, 1]]> : tensor<2x2xi64>} : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  return %v3 : tensor<?x?xf32>
}
