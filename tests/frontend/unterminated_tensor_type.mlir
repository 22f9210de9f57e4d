// ERROR: expected '>' to close tensor type started at 5:31, found 'func.return'
// ERROR: unterminated_tensor_type.mlir:6:3: error:
// A tensor type missing its '>': the error points at the first token that cannot continue it.
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %b : tensor<2xf32
  func.return %0 : tensor<2xf32>
}
