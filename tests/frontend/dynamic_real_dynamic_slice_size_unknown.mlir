// Specialized (--input-shapes), a real_dynamic_slice whose start and limit
// are both data still has no static result size: an error at its location
// (a data start with limit = start + constant becomes a dynamic_slice:
// tests/run/symbolic_real_dynamic_slice_start.mlir, run specialized too).
// ARGS: --input-shapes=4xf32,i32,i32
// ERROR: dynamic_real_dynamic_slice_size_unknown.mlir:11:8: error: stablehlo.real_dynamic_slice: dimension 0: limit_indices - start_indices is not a constant (a start computed at run time needs a limit of that start plus a constant)
func.func public @main(%x: tensor<?xf32>, %s: tensor<i32>, %t: tensor<i32>) -> tensor<?xf32> {
  %s1 = stablehlo.reshape %s : (tensor<i32>) -> tensor<1xi32>
  %t1 = stablehlo.reshape %t : (tensor<i32>) -> tensor<1xi32>
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %r = stablehlo.real_dynamic_slice %x, %s1, %t1, %one : (tensor<?xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
