// --symbolic insists on the symbolic entry: an op it does not compile
// (cholesky of a `?` matrix size) is an error at its location instead of
// the fallback to specialization (tests/run/dynamic_fallback_specialized.mlir).
// RUN-ARGS: --symbolic --input="1x2x2xf32=4 2 2 5"
// ERROR: stablehlo.cholesky: a matrix size is symbolic; specialize the program with --input-shapes or --dim
func.func public @main(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %y = stablehlo.cholesky %x, lower = true : tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}
