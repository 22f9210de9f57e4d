// A transpose reaching dot_general through a reshape folds into the dot's
// dimension numbers when the reshape commutes with it (simplify.c,
// commute_reshape): the reshape of x it becomes is a view. Dropping a unit
// dim (BERT's K^T), merging dims adjacent in x, splitting one fold; merging
// dims that are not adjacent in x (the last) stays.
func.func @main(%x: tensor<1x2x3x4xf32>, %q: tensor<2x3x4xf32>, %y: tensor<2x3x4xf32>,
                %a: tensor<2x4xf32>, %z: tensor<6x5xf32>, %w: tensor<2x3x7xf32>,
                %v: tensor<2x3x4xf32>, %u: tensor<3x2xf32>)
    -> (tensor<2x3x3xf32>, tensor<2x6xf32>, tensor<5x7xf32>, tensor<8x2xf32>) {
  %xt = stablehlo.transpose %x, dims = [0, 1, 3, 2] : (tensor<1x2x3x4xf32>) -> tensor<1x2x4x3xf32>
  %kt = stablehlo.reshape %xt : (tensor<1x2x4x3xf32>) -> tensor<2x4x3xf32>
  %0 = stablehlo.dot_general %q, %kt, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x3xf32>) -> tensor<2x3x3xf32>
  %yt = stablehlo.transpose %y, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %ym = stablehlo.reshape %yt : (tensor<4x2x3xf32>) -> tensor<4x6xf32>
  %1 = stablehlo.dot_general %a, %ym, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x6xf32>) -> tensor<2x6xf32>
  %zt = stablehlo.transpose %z, dims = [1, 0] : (tensor<6x5xf32>) -> tensor<5x6xf32>
  %zs = stablehlo.reshape %zt : (tensor<5x6xf32>) -> tensor<5x2x3xf32>
  %2 = stablehlo.dot_general %zs, %w, contracting_dims = [1, 2] x [0, 1] : (tensor<5x2x3xf32>, tensor<2x3x7xf32>) -> tensor<5x7xf32>
  %vt = stablehlo.transpose %v, dims = [0, 2, 1] : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %vm = stablehlo.reshape %vt : (tensor<2x4x3xf32>) -> tensor<8x3xf32>
  %3 = stablehlo.dot_general %vm, %u, contracting_dims = [1] x [0] : (tensor<8x3xf32>, tensor<3x2xf32>) -> tensor<8x2xf32>
  return %0, %1, %2, %3 : tensor<2x3x3xf32>, tensor<2x6xf32>, tensor<5x7xf32>, tensor<8x2xf32>
}
