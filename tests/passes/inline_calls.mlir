// inline: every call is replaced by the callee's body (bottom-up, so a
// callee is expanded once), and private functions nothing names are
// dropped: @main is left with two adds chained through the first result.
func.func private @twice(%v: tensor<4xf32>) -> tensor<4xf32> {
  %d = stablehlo.add %v, %v : tensor<4xf32>
  return %d : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = call @twice(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = func.call @twice(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}
