func.func @main() -> tensor<2x3xf16> {
  %a = stablehlo.constant dense<[[0.1, 65504.0, 65520.0], [1.0e-8, -inf, nan]]> : tensor<2x3xf16>
  %b = stablehlo.constant dense<"0x0000803F000000400000404000008040"> : tensor<2x2xf32>
  %c = stablehlo.constant dense<"0x0001"> : tensor<2xi1>
  %d = stablehlo.constant dense<[[true, false], [false, true]]> : tensor<2x2xi1>
  %e = stablehlo.constant dense<[(1.0, -2.0), (0x7FC00000, inf)]> : tensor<2xcomplex<f32>>
  %f = stablehlo.constant dense<[7, -8, 15]> : tensor<3xi4>
  %g = stablehlo.constant dense<0.333333333333333333> : tensor<4x4xbf16>
  %h = stablehlo.constant dense<18446744073709551615> : tensor<ui64>
  %i = stablehlo.constant dense<> : tensor<0x3xf32>
  %j = stablehlo.constant dense<[1.5, 2.5]> : tensor<2xf8E4M3FN>
  %k = stablehlo.constant dense<0x7FF0000000000001> : tensor<f64>
  %l = stablehlo.iota dim = 0 : tensor<4xui32>
  %m = stablehlo.convert %a : (tensor<2x3xf16>) -> tensor<2x3xf32>
  %n = stablehlo.reduce_precision %m, format = e5m10 : tensor<2x3xf32>
  %o = stablehlo.convert %n : (tensor<2x3xf32>) -> tensor<2x3xf16>
  func.return %o : tensor<2x3xf16>
}
