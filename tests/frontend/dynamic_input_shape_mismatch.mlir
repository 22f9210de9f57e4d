// --input-shapes must agree with the static sizes and element types of the
// arguments.
// ARGS: --input-shapes=3x5xf32
// ERROR: error: --input-shapes: shape 0 does not fit argument x of type tensor<?x4xf32>
func.func public @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}
