// real_dynamic_slice whose start and limit are both data: its result size,
// limit - start, is known only when the op runs, so no entry can size its
// buffers; an error at its location (the start alone may be data:
// tests/run/symbolic_real_dynamic_slice_start.mlir).
// ERROR: symbolic_real_dynamic_slice_size_unknown.mlir:10:8: error: stablehlo.real_dynamic_slice: limit - start depends on values computed at run time; specialize the program with --input-shapes or --dim
func.func public @main(%x: tensor<?xf32>, %s: tensor<i32>, %t: tensor<i32>) -> tensor<?xf32> {
  %s1 = stablehlo.reshape %s : (tensor<i32>) -> tensor<1xi32>
  %t1 = stablehlo.reshape %t : (tensor<i32>) -> tensor<1xi32>
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %r = stablehlo.real_dynamic_slice %x, %s1, %t1, %one : (tensor<?xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
