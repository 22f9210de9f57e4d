// jax.export's shape check: custom_call @shape_assertion(pred, dims...)
// with `{0}` standing for the first dimension operand. Specialized to x's
// shape (3x4) the predicate b >= 2 folds to true and the check goes; the
// result is x * 2 (tests/frontend/dynamic_shape_assertion_fails.mlir: 1x4).
// RUN-ARGS: --input="3x4xf32=1 2 3 4 5 6 7 8 9 10 11 12"
// OUTPUT: 3x4xf32=[[2 4 6 8][10 12 14 16][18 20 22 24]]
func.func public @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %d = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %b = stablehlo.convert %d : (tensor<i32>) -> tensor<i64>
  %two = stablehlo.constant dense<2> : tensor<i64>
  %ok = stablehlo.compare GE, %b, %two, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%ok, %b) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 2 for dimension variable 'b'. Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}).", has_side_effect = true} : (tensor<i1>, tensor<i64>) -> ()
  %y = stablehlo.add %x, %x : tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
