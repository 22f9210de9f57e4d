// A transpose that reaches dot_general through a reshape folds into the
// dot (simplify.c, commute_reshape): the reshape drops a unit dim (BERT's
// K^T: 1x2x4x3 to 2x4x3), merges dims the transpose keeps adjacent, or
// splits one; the last one merges dims that are not adjacent in x and
// stays. Expected values from NumPy: q @ x.transpose(0,1,3,2).reshape(2,4,3),
// a @ y.transpose(2,0,1).reshape(4,6), einsum('pij,ijn->pn',
// z.T.reshape(5,2,3), w), v.transpose(0,2,1).reshape(8,3) @ u.
// RUN-ARGS: --input="1x2x3x4xf32=-3 0 3 -1 2 -2 1 -3 0 3 -1 2 -2 1 -3 0 3 -1 2 -2 1 -3 0 3"
// RUN-ARGS: --input="2x3x4xf32=-3 2 0 -2 3 1 -1 -3 2 0 -2 3 1 -1 -3 2 0 -2 3 1 -1 -3 2 0"
// RUN-ARGS: --input="2x3x4xf32=-3 -1 1 3 -2 0 2 -3 -1 1 3 -2 0 2 -3 -1 1 3 -2 0 2 -3 -1 1"
// RUN-ARGS: --input="2x4xf32=-3 0 3 -1 2 -2 1 -3"
// RUN-ARGS: --input="6x5xf32=-3 1 -2 2 -1 3 0 -3 1 -2 2 -1 3 0 -3 1 -2 2 -1 3 0 -3 1 -2 2 -1 3 0 -3 1"
// RUN-ARGS: --input="2x3x7xf32=-3 2 0 -2 3 1 -1 -3 2 0 -2 3 1 -1 -3 2 0 -2 3 1 -1 -3 2 0 -2 3 1 -1 -3 2 0 -2 3 1 -1 -3 2 0 -2 3 1 -1"
// RUN-ARGS: --input="2x3x4xf32=-3 3 2 1 0 -1 -2 -3 3 2 1 0 -1 -2 -3 3 2 1 0 -1 -2 -3 3 2"
// RUN-ARGS: --input="3x2xf32=-3 -2 -1 0 1 2"
// OUTPUT: 2x3x3xf32=[[[11 -4 2][-9 12 -2][-15 -7 8]][[6 -6 10][-11 6 9][-7 4 8]]]
// OUTPUT: 2x6xf32=[[9 15 14 -8 -9 -10][-12 7 5 -4 -6 6]]
// OUTPUT: 5x7xf32=[[-6 4 0 -4 6 2 -2][6 -4 0 4 -6 -2 2][-3 2 0 -2 3 1 -1][9 -6 0 6 -9 -3 3][0 0 0 0 0 0 0]]
// OUTPUT: 8x2xf32=[[12 12][-6 -2][-3 -2][0 -2][-1 -2][2 -2][12 12][-6 -2]]
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
