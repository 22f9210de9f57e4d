// StableHLO programs cannot recurse: a cycle in the call graph is an error.
// ERROR: recursive call of @main
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = call @main(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
