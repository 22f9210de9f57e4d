// ERROR: refined_shape_overflow.mlir:7:8: error: stablehlo.dynamic_broadcast_in_dim: the result would have more than 2^58 elements
// A shape operand that folds to 2^32 x 2^32 would make a type whose element
// count overflows int64 once multiplied by the element size.
func.func @main(%a: tensor<f32>) -> tensor<?x?xf32> {
  %s = stablehlo.constant dense<[4294967296, 4294967296]> : tensor<2xi64>
  // Shape refinement makes this a broadcast_in_dim to a static shape.
  %0 = stablehlo.dynamic_broadcast_in_dim %a, %s, dims = [] : (tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}
