// Transposes feeding dot_general fold into its dimension numbers
// (simplify.c): x @ transpose(w) reads w with rhs contracting dim 1;
// a batched transpose of the lhs maps its batch and contracting dims;
// a transpose that would reorder the rhs free dims stays.
func.func @main(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %q: tensor<5x6x2xf32>,
                %k: tensor<2x5x6xf32>, %v: tensor<3x4x2xf32>)
    -> (tensor<2x4xf32>, tensor<2x5x5xf32>, tensor<2x2x4xf32>) {
  %wt = stablehlo.transpose %w, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %0 = stablehlo.dot_general %x, %wt, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %qt = stablehlo.transpose %q, dims = [2, 0, 1] : (tensor<5x6x2xf32>) -> tensor<2x5x6xf32>
  %1 = stablehlo.dot_general %qt, %k, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x5x6xf32>, tensor<2x5x6xf32>) -> tensor<2x5x5xf32>
  %vt = stablehlo.transpose %v, dims = [2, 1, 0] : (tensor<3x4x2xf32>) -> tensor<2x4x3xf32>
  %2 = stablehlo.dot_general %x, %vt, contracting_dims = [1] x [2] : (tensor<2x3xf32>, tensor<2x4x3xf32>) -> tensor<2x2x4xf32>
  return %0, %1, %2 : tensor<2x4xf32>, tensor<2x5x5xf32>, tensor<2x2x4xf32>
}
