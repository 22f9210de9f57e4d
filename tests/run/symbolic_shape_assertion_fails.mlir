// jax.export's shape check compiled with symbolic sizes is checked when
// the entry is called: b = 1 breaks b >= 2, so the entry returns 2 with
// the assertion's message, {0} formatted as jax does (P_F_status_message),
// and shloc run prints it (tests/run/dynamic_shape_assertion.mlir: b = 3
// holds).
// RUN-ARGS: --symbolic --input="1x4xf32=1 2 3 4"
// ERROR: @main returned 2: Expected value >= 2 for dimension variable 'b', got 1 (b = 1, args[0].shape[0] = 1)
func.func public @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %d = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %b = stablehlo.convert %d : (tensor<i32>) -> tensor<i64>
  %two = stablehlo.constant dense<2> : tensor<i64>
  %ok = stablehlo.compare GE, %b, %two, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%ok, %b, %d) {api_version = 2 : i32, error_message = "Expected value >= 2 for dimension variable 'b', got {0} (b = {0}, args[0].shape[0] = {1})", has_side_effect = true} : (tensor<i1>, tensor<i64>, tensor<i32>) -> ()
  %y = stablehlo.add %x, %x : tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
