// A failed shape assertion's message with several fields, a negative and
// a multi-digit value (r * c - 1000 for 2x3: -994), formatted in the
// generated code as jax.export's str.format would.
// RUN-ARGS: --input="2x3xf32=1 2 3 4 5 6"
// ERROR: @main returned 2: need r * c > 1000: r = 2, c = 3, r * c - 1000 = -994 ({x} stays)
func.func public @main(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
  %c = stablehlo.get_dimension_size %x, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
  %n = stablehlo.multiply %r, %c : tensor<i32>
  %k = stablehlo.constant dense<1000> : tensor<i32>
  %m = stablehlo.subtract %n, %k : tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %ok = stablehlo.compare GT, %m, %zero, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  stablehlo.custom_call @shape_assertion(%ok, %r, %c, %m) {api_version = 2 : i32, error_message = "need r * c > 1000: r = {0}, c = {1}, r * c - 1000 = {2} ({x} stays)", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>, tensor<i32>) -> ()
  %y = stablehlo.negate %x : tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
