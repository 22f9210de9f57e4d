// A dimension argument that only sizes a result (an iota of b elements)
// cannot follow from the input shapes: it must be given with --dim.
// ARGS: --input-shapes=3xf32
// ERROR: error: dimension argument d0 (%b) of @main does not follow from the input shapes; give it with --dim d0=N
func.func public @main(%b: tensor<i64>, %x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi32>) {
  %b32 = stablehlo.convert %b : (tensor<i64>) -> tensor<i32>
  %b1 = stablehlo.reshape %b32 : (tensor<i32>) -> tensor<1xi32>
  %i = stablehlo.dynamic_iota %b1, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>
  return %x, %i : tensor<?xf32>, tensor<?xi32>
}
