// A data start with limit = start + n + 1 on an operand of n elements:
// limit - start folds but exceeds the operand (real_dynamic_slice as slice
// (C3): 0 <= start <= limit <= shape(operand)), whatever the start. The
// entry checks it and returns 1 before reading anything (specialized, it
// is a compile-time error: tests/frontend/dynamic_real_dynamic_slice_too_long.mlir).
// RUN-ARGS: --symbolic --input="3xf32=1 2 3" --input="i32=0"
// ERROR: @main returned 1: the sizes are negative, overflow, exceed a bound or break a constraint of the program
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
