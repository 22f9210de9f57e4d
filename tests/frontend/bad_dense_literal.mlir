// ERROR: dense literal has shape [2x2] but its type is tensor<2x3xf32>
// ERROR: bad_dense_literal.mlir:5:27: error:
// The nested lists of a dense literal must match the shape of its type.
func.func @main() -> tensor<2x3xf32> {
  %0 = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
