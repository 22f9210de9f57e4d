// A shape_assertion whose predicate folds to false once specialized is a
// compile error with its message, `{0}` replaced by the dimension value.
// ARGS: --input-shapes=1x4xf32
// ERROR: dynamic_shape_assertion_fails.mlir:10:3: error: stablehlo.custom_call: shape assertion failed: Input shapes do not match the polymorphic shapes specification. Expected value >= 2 for dimension variable 'b'. Obtained dimension variables: 'b' = 1 from specification 'b' for dimension args[0].shape[0] (= 1).
func.func public @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %d = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>
  %b = stablehlo.convert %d : (tensor<i32>) -> tensor<i64>
  %two = stablehlo.constant dense<2> : tensor<i64>
  %ok = stablehlo.compare GE, %b, %two, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%ok, %b) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 2 for dimension variable 'b'. Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}).", has_side_effect = true} : (tensor<i1>, tensor<i64>) -> ()
  %y = stablehlo.add %x, %x : tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
