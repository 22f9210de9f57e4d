// The entry of tests/native/bounded.c: at most 16 rows (#stablehlo.bounds),
// so the header gives BND_MAIN_TEMP_BYTES_MAX and BND_MAIN_RESULT0_BYTES_MAX;
// jax.export's shape check b >= 2 fails the call with its message.
func.func public @main(%x: tensor<?x4xf32, #stablehlo.bounds<16, ?>>) -> tensor<?x4xf32, #stablehlo.bounds<16, ?>> {
  %d = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32, #stablehlo.bounds<16, ?>>) -> tensor<i32>
  %b = stablehlo.convert %d : (tensor<i32>) -> tensor<i64>
  %two = stablehlo.constant dense<2> : tensor<i64>
  %ok = stablehlo.compare GE, %b, %two, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%ok, %b) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 2 for dimension variable 'b'. Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), .", has_side_effect = true} : (tensor<i1>, tensor<i64>) -> ()
  %sq = stablehlo.multiply %x, %x : (tensor<?x4xf32, #stablehlo.bounds<16, ?>>, tensor<?x4xf32, #stablehlo.bounds<16, ?>>) -> tensor<?x4xf32>
  %y = stablehlo.add %sq, %x : (tensor<?x4xf32>, tensor<?x4xf32, #stablehlo.bounds<16, ?>>) -> tensor<?x4xf32, #stablehlo.bounds<16, ?>>
  return %y : tensor<?x4xf32, #stablehlo.bounds<16, ?>>
}
