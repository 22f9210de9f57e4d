// ERROR: broadcast_negative_size.mlir:4:8: error: stablehlo.broadcast: broadcast_sizes must be non-negative
// stablehlo.broadcast prepends broadcast_sizes to the operand's shape: a size cannot be negative.
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.broadcast %x, sizes = [-1] : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
