// spec "select_and_scatter" (C2): shape(source) is the number of windows
// of the padded operand. With symbolic sizes that is a constraint checked
// at entry: a 5-row operand has (5 + 1 - 2) / 2 + 1 = 3 windows of 2 rows
// at stride 2 with one row of low padding, so a 2-row source makes the
// entry return 1 before it writes anything.
// RUN-ARGS: --symbolic --input="5x2xf32=1 2 3 4 5 6 7 8 9 10" --input="2x2xf32=1 1 1 1"
// ERROR: @main returned 1: the sizes are negative, overflow, exceed a bound or break a constraint of the program: arg1_dim0 == max(0, ((1 + max(arg0_dim0, 0)) / 2)) (2 vs 3)
func.func public @main(%x: tensor<?x2xf32>, %s: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.select_and_scatter"(%x, %s, %zero) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%acc: tensor<f32>, %g: tensor<f32>):
    %sum = stablehlo.add %acc, %g : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>, padding = dense<[[1, 0], [0, 0]]> : tensor<2x2xi64>} : (tensor<?x2xf32>, tensor<?x2xf32>, tensor<f32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}
