// --symbolic insists on the symbolic entry: an op it does not compile
// (cholesky) is an error at its location instead of the fallback to
// specialization (tests/run/dynamic_fallback_specialized.mlir).
// RUN-ARGS: --symbolic --input="1x2x2xf32=4 2 2 5"
// ERROR: stablehlo.cholesky: not compiled on symbolic sizes; specialize the program with --input-shapes or --dim
func.func public @main(%x: tensor<?x2x2xf32>) -> tensor<?x2x2xf32> {
  %y = stablehlo.cholesky %x, lower = true : tensor<?x2x2xf32>
  return %y : tensor<?x2x2xf32>
}
