// A value returned twice cannot be written into both result buffers by its
// kernel: it gets a temp, which codegen copies into each result.
func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %n = stablehlo.negate %x : tensor<4xf32>
  return %n, %n : tensor<4xf32>, tensor<4xf32>
}
