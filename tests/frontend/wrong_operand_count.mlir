// ERROR: wrong_operand_count.mlir:5:8: error: op has 2 operands but its type signature lists 1
// The generic form's function type must list one type per operand.
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %a : tensor<4xf32>
  %1 = "stablehlo.add"(%a, %0) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
