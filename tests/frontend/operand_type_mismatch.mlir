// ERROR: operand_type_mismatch.mlir:5:26: error: operand #1 has type tensor<3xf32> but the op's type signature says tensor<4xf32>
// The types written in an op's signature must be the types of its operands.
func.func @main(%a: tensor<4xf32>, %b: tensor<3xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %a : tensor<4xf32>
  %1 = stablehlo.add %0, %b : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
