// dynamic_pad whose low padding is a symbolic size (--symbolic;
// tests/run.py also runs it specialized): x (n x 2) padded with low [n, 1],
// high [0, -1], interior [1, 0]: n + n + (n - 1) rows. Expected values from
// numpy (a padded array, then sliced for the negative padding) for
// x = [[1 2] [3 4]], padding value 9.
// RUN-ARGS: --symbolic --input="2x2xf32=1 2 3 4"
// OUTPUT: 5x2xf32=[[9 9][9 9][9 1][9 9][9 3]]
func.func public @main(%x: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %nine = stablehlo.constant dense<9.0> : tensor<f32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x2xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %lo = stablehlo.concatenate %n1, %one, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %hi = stablehlo.constant dense<[0, -1]> : tensor<2xi32>
  %in = stablehlo.constant dense<[1, 0]> : tensor<2xi32>
  %p = stablehlo.dynamic_pad %x, %nine, %lo, %hi, %in : (tensor<?x2xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
  return %p : tensor<?x2xf32>
}
