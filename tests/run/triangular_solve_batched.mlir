// spec "triangular_solve": a batch of two lower-triangular 2x2 systems,
// solved as a * x = b (left_side) and as x * a^T = b^T (right side,
// TRANSPOSE), which have the same solutions (codegen/linalg.c brings both
// to one forward substitution). Hand-checked:
//   [[2 0] [1 4]] x = [4 6]  ->  x = [2 1]
//   [[1 0] [3 2]] x = [1 7]  ->  x = [1 2]
// RUN-ARGS: --input="2x2x2xf32=2 0 1 4 1 0 3 2" --input="2x2x1xf32=4 6 1 7" --input="2x1x2xf32=4 6 1 7"
// OUTPUT: 2x2x1xf32=[[[2][1]][[1][2]]]
// OUTPUT: 2x1x2xf32=[[[2 1]][[1 2]]]
func.func @main(%a: tensor<2x2x2xf32>, %b: tensor<2x2x1xf32>, %bt: tensor<2x1x2xf32>) -> (tensor<2x2x1xf32>, tensor<2x1x2xf32>) {
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x2x2xf32>, tensor<2x2x1xf32>) -> tensor<2x2x1xf32>
  %1 = "stablehlo.triangular_solve"(%a, %bt) {left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<2x2x2xf32>, tensor<2x1x2xf32>) -> tensor<2x1x2xf32>
  return %0, %1 : tensor<2x2x1xf32>, tensor<2x1x2xf32>
}
