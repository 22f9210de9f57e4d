// ERROR: unknown_op.mlir:6:8: error: unknown operation 'foo.frobnicate'
// An op of an unknown dialect is an error naming the op at its location.
func.func @main() -> tensor<2xf32> {
  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = stablehlo.exponential %0 : tensor<2xf32>
  %2 = foo.frobnicate %1 : tensor<2xf32> -> tensor<2xf32>
  func.return %2 : tensor<2xf32>
}
