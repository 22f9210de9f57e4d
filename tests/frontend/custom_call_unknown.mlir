// ERROR: custom_call @foo is not supported
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = stablehlo.custom_call @foo(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
