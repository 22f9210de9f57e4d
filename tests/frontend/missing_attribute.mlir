// ERROR: missing_attribute.mlir:5:8: error: 'stablehlo.transpose': missing attribute 'permutation'
// A generic op without a required attribute is rejected naming the attribute.
func.func @main(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = "stablehlo.transpose"(%a) {dims = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %1 : tensor<3x2xf32>
}
