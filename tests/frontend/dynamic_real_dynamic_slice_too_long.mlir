// Specialized, a data start with limit = start + n + 1 on an operand of n
// elements breaks real_dynamic_slice's bounds (slice (C3)) whatever the
// start: an error at compile time (the symbolic entry returns 1:
// tests/run/symbolic_real_dynamic_slice_too_long.mlir).
// ARGS: --input-shapes=3xf32,i32
// ERROR: dynamic_real_dynamic_slice_too_long.mlir:15:8: error: stablehlo.real_dynamic_slice: dimension 0: bad slice of 4 elements (limit - start) step 1 from 3
func.func public @main(%x: tensor<?xf32>, %s: tensor<i32>) -> tensor<?xf32> {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %n1 = stablehlo.add %n, %one : tensor<i32>
  %len = stablehlo.reshape %n1 : (tensor<i32>) -> tensor<1xi32>
  %s1 = stablehlo.reshape %s : (tensor<i32>) -> tensor<1xi32>
  %limit = stablehlo.add %s1, %len : tensor<1xi32>
  %stride = stablehlo.constant dense<1> : tensor<1xi32>
  %r = stablehlo.real_dynamic_slice %x, %s1, %limit, %stride : (tensor<?xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
