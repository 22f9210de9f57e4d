// A dynamic shape operand that does not fold without specialization is an
// error naming the options that specialize (symbolic sizes are not
// compiled).
// ERROR: dynamic_not_specialized.mlir:8:8: error: stablehlo.dynamic_iota: output_shape is not a compile-time constant; specialize the program with --input-shapes or --dim
func.func public @main(%b: tensor<i64>) -> tensor<?xi32> {
  %b32 = stablehlo.convert %b : (tensor<i64>) -> tensor<i32>
  %b1 = stablehlo.reshape %b32 : (tensor<i32>) -> tensor<1xi32>
  %i = stablehlo.dynamic_iota %b1, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>
  return %i : tensor<?xi32>
}
