// triangular_solve and cholesky over a symbolic batch (--symbolic;
// tests/run.py also runs it specialized). Expected values by hand:
// [[2 0] [1 1]] x = [4 3] gives x = [2 1], [[1 0] [2 4]] x = [1 10] gives
// [1 2]; the lower Cholesky factors of [[4 2] [2 5]] and [[9 3] [3 5]] are
// [[2 0] [1 2]] and [[3 0] [1 2]].
// RUN-ARGS: --symbolic --input="2x2x2xf32=2 0 1 1 1 0 2 4" --input="2x2x1xf32=4 3 1 10" --input="2x2x2xf32=4 2 2 5 9 3 3 5"
// OUTPUT: 2x2x1xf32=[[[2][1]][[1][2]]]
// OUTPUT: 2x2x2xf32=[[[2 0][1 2]][[3 0][1 2]]]
func.func public @main(%a: tensor<?x2x2xf32>, %b: tensor<?x2x1xf32>, %c: tensor<?x2x2xf32>) -> (tensor<?x2x1xf32>, tensor<?x2x2xf32>) {
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : (tensor<?x2x2xf32>, tensor<?x2x1xf32>) -> tensor<?x2x1xf32>
  %l = stablehlo.cholesky %c, lower = true : tensor<?x2x2xf32>
  return %x, %l : tensor<?x2x1xf32>, tensor<?x2x2xf32>
}
