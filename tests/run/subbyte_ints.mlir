// i2/i4/ui2/ui4 compute in their own width (two's complement wrap-around,
// spec "add", "divide", "remainder" with XLA's x/0 and INT_MIN/-1), convert
// from float saturates (NaN to 0), and results are stored one per byte,
// sign- or zero-extended.
// OUTPUT: 4xi4=[-7 7 5 0]
// OUTPUT: 4xi4=[3 -8 -1 -1]
// OUTPUT: 4xi4=[1 0 5 0]
// OUTPUT: 4xui4=[1 1 0 9]
// OUTPUT: 4xi2=[-1 -2 0 1]
// OUTPUT: 4xi4=[1 -1 5 -1]
// OUTPUT: 4xui2=[3 0 3 0]
// OUTPUT: 4xi4=[3 -8 7 0]
// OUTPUT: i4=1
// OUTPUT: 2x2xi4=[[-7 0][4 1]]
// OUTPUT: 4xf32=[7 -8 5 -3]
func.func @main() -> (tensor<4xi4>, tensor<4xi4>, tensor<4xi4>, tensor<4xui4>, tensor<4xi2>, tensor<4xi4>, tensor<4xui2>, tensor<4xi4>, tensor<i4>, tensor<2x2xi4>, tensor<4xf32>) {
  %a = stablehlo.constant dense<[7, -8, 5, -3]> : tensor<4xi4>
  %b = stablehlo.constant dense<[2, -1, 0, 3]> : tensor<4xi4>
  %add = stablehlo.add %a, %b : tensor<4xi4>
  %div = stablehlo.divide %a, %b : tensor<4xi4>
  %rem = stablehlo.remainder %a, %b : tensor<4xi4>
  %u = stablehlo.constant dense<[15, 1, 8, 3]> : tensor<4xui4>
  %u2 = stablehlo.multiply %u, %u : tensor<4xui4>
  %c = stablehlo.constant dense<[1, -2, 0, -1]> : tensor<4xi2>
  %cn = stablehlo.negate %c : tensor<4xi2>
  %sh = stablehlo.shift_right_arithmetic %a, %b : tensor<4xi4>
  %f = stablehlo.constant dense<[3.7, -9.5, 100.0, 0x7FC00000]> : tensor<4xf32>
  %fu = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xui2>
  %fi = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xi4>
  %z = stablehlo.constant dense<0> : tensor<i4>
  %s = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xi4>, tensor<i4>) -> tensor<i4>
  %m = stablehlo.reshape %a : (tensor<4xi4>) -> tensor<2x2xi4>
  %d = stablehlo.dot_general %m, %m, contracting_dims = [1] x [0] : (tensor<2x2xi4>, tensor<2x2xi4>) -> tensor<2x2xi4>
  %af = stablehlo.convert %a : (tensor<4xi4>) -> tensor<4xf32>
  return %add, %div, %rem, %u2, %cn, %sh, %fu, %fi, %s, %d, %af : tensor<4xi4>, tensor<4xi4>, tensor<4xi4>, tensor<4xui4>, tensor<4xi2>, tensor<4xi4>, tensor<4xui2>, tensor<4xi4>, tensor<i4>, tensor<2x2xi4>, tensor<4xf32>
}
