// legalize: `dot` becomes dot_general contracting the last lhs dimension
// with the first rhs dimension (spec "dot"); get_tuple_element of a tuple
// is forwarded to the element and the tuple, left unused, is removed.
func.func @main(%x: tensor<2x3xf32>, %w: tensor<3x5xf32>, %v: tensor<2xf32>) -> (tensor<2x5xf32>, tensor<2xf32>) {
  %d = stablehlo.dot %x, %w : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  %t = stablehlo.tuple %v, %d : tuple<tensor<2xf32>, tensor<2x5xf32>>
  %e = stablehlo.get_tuple_element %t[0] : (tuple<tensor<2xf32>, tensor<2x5xf32>>) -> tensor<2xf32>
  return %d, %e : tensor<2x5xf32>, tensor<2xf32>
}
