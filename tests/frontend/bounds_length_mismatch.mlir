// #stablehlo.bounds gives one bound per dimension (upstream's
// verifyBounds).
// ERROR: bounds_length_mismatch.mlir:4:55: error: bounds length is 1, expected to be equal to rank(2) of the tensor
func.func @main(%x: tensor<?x4xf32, #stablehlo.bounds<16>>) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}
