// ERROR: callee @nowhere is not a function of the module
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = call @nowhere(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
