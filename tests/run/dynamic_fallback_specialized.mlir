// An op the symbolic path does not compile (cholesky of a `?` matrix
// size): shloc run says so in a note on stderr and runs the program
// specialized to the inputs' shapes instead (with --symbolic it is an error:
// tests/run/symbolic_required.mlir). [[4 2][2 5]] = L L^T, L = [[2 0][1 2]].
// RUN-ARGS: --input="1x2x2xf32=4 2 2 5"
// OUTPUT: 1x2x2xf32=[[[2 0][1 2]]]
func.func public @main(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %y = stablehlo.cholesky %x, lower = true : tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}
