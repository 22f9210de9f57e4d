func.func @main() {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = stablehlo.exponential %x : tensor<2xf32>
  %z = stablehlo.dot_general %x, %x, contracting_dims = [0] x [0], precision = [DEFAULT, HIGHEST] : (tensor<2xf32>, tensor<2xf32>) -> tensor<f32>
  %t = stablehlo.transpose %x, dims = [0] : (tensor<2xf32>) -> tensor<2xf32>
  %p = stablehlo.pad %x, %z, low = [1], high = [0], interior = [1] : (tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  %c = stablehlo.concatenate %x, %t, dim = 0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  %b = stablehlo.compare LT, %x, %t : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %s = stablehlo.select %b, %x, %t : tensor<2xi1>, tensor<2xf32>
  check.expect_almost_eq_const %y, dense<[2.718282, 7.389056]> : tensor<2xf32>
  check.expect_close %y, %y, max_ulp_difference = 3 : tensor<2xf32>, tensor<2xf32>
  check.expect_eq %p, %c : tensor<4xf32>
  %r = stablehlo.custom_call @check.eq(%x, %t) : (tensor<2xf32>, tensor<2xf32>) -> tensor<i1>
  func.return
}
