// pad on a symbolic batch (--symbolic; tests/run.py also runs it
// specialized): interior padding 1 and negative high padding along the
// symbolic dimension, b + 1 + (b - 1) - 1 rows. Expected values from numpy
// (a padded array, then sliced for the negative padding) for x = [[1 2]
// [3 4] [5 6]], padding value 9.
// RUN-ARGS: --symbolic --input="3x2xf32=1 2 3 4 5 6"
// OUTPUT: 5x3xf32=[[9 9 9][1 2 9][9 9 9][3 4 9][9 9 9]]
func.func public @main(%x: tensor<?x2xf32>) -> tensor<?x3xf32> {
  %nine = stablehlo.constant dense<9.0> : tensor<f32>
  %p = stablehlo.pad %x, %nine, low = [1, 0], high = [-1, 1], interior = [1, 0] : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x3xf32>
  return %p : tensor<?x3xf32>
}
