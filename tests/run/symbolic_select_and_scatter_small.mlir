// select_and_scatter on symbolic sizes (--symbolic; tests/run.py also runs it
// specialized) of a fused operand, -x: the minimum of x per window (first of
// equals) gets the source value, added to init 1. Window 2x3, strides 2x2,
// padding [[1, 0], [0, 1]] (the first row of windows and the last column
// reach into it): the source has floor((n - 1) / 2) + 1 rows and
// floor((m - 2) / 2) + 1 columns, checked at entry (spec C2).
// The same program at a 2x4 operand and a 1x2 source.
// Written by gen_symbolic_select_and_scatter.py (numpy 1.24.2 values).
// RUN-ARGS: --symbolic
// RUN-ARGS: --input="2x4xf32=3 4 1 4 2 3 3 2"
// RUN-ARGS: --input="1x2xf32=9 1"
// OUTPUT: 2x4xf32=[[1 1 11 1][1 1 1 1]]
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
