// The symbolic twin of @rds in indices.mlir for tests/native/indices.c:
// the operand's rows are `?` (the driver passes 7), so the start is read
// and clamped by the symbolic entry's own code (codegen/dyndims.c).
func.func public @rds(%op: tensor<?x5xf32>, %s: tensor<2xi64>) -> tensor<3x2xf32> {
  %len = stablehlo.constant dense<[5, 2]> : tensor<2xi64>
  %limit = stablehlo.add %s, %len : tensor<2xi64>
  %strides = stablehlo.constant dense<[2, 1]> : tensor<2xi64>
  %r = stablehlo.real_dynamic_slice %op, %s, %limit, %strides
      : (tensor<?x5xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
