// Transposes folded into dot_general (simplify.c) compute what the
// transposed operands would: x @ transpose(w), and transpose(p) @
// transpose(w) with p = transpose(x). By hand: rows of x dotted with the
// rows of w (e0, e1, e2, all ones).
// RUN-ARGS: --input="2x3xf32=1 2 3 4 5 6" --input="4x3xf32=1 0 0 0 1 0 0 0 1 1 1 1"
// RUN-ARGS: --input="3x2xf32=1 4 2 5 3 6"
// OUTPUT: 2x4xf32=[[1 2 3 6][4 5 6 15]]
// OUTPUT: 2x4xf32=[[1 2 3 6][4 5 6 15]]
func.func @main(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %p: tensor<3x2xf32>)
    -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %wt = stablehlo.transpose %w, dims = [1, 0] : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %0 = stablehlo.dot_general %x, %wt, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %pt = stablehlo.transpose %p, dims = [1, 0] : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %1 = stablehlo.dot_general %pt, %wt, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0, %1 : tensor<2x4xf32>, tensor<2x4xf32>
}
