// A bounded dynamic type (#stablehlo.bounds: at most 16 rows) and a
// dimension argument named as jax.export names it (jax.global_constant),
// given with --dim b=2; x's `?` follows from the input. y = x + b * iota
// along rows: rows 0 and 1 of x plus 0 and 2.
// RUN-ARGS: --dim=b=2 --input="2x3xf32=1 2 3 4 5 6"
// OUTPUT: 2x3xf32=[[1 2 3][6 7 8]]
func.func public @main(%b: tensor<i64> {jax.global_constant = "b"}, %x: tensor<?x3xf32, #stablehlo.bounds<16, ?>>) -> tensor<?x3xf32, #stablehlo.bounds<16, ?>> {
  %b32 = stablehlo.convert %b : (tensor<i64>) -> tensor<i32>
  %b1 = stablehlo.reshape %b32 : (tensor<i32>) -> tensor<1xi32>
  %three = stablehlo.constant dense<3> : tensor<1xi32>
  %s = stablehlo.concatenate %b1, %three, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %i = stablehlo.dynamic_iota %s, dim = 0 : (tensor<2xi32>) -> tensor<?x3xf32>
  %bf = stablehlo.convert %b : (tensor<i64>) -> tensor<f32>
  %bb = stablehlo.dynamic_broadcast_in_dim %bf, %s, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x3xf32>
  %t = stablehlo.multiply %i, %bb : tensor<?x3xf32>
  %y = stablehlo.add %x, %t : (tensor<?x3xf32, #stablehlo.bounds<16, ?>>, tensor<?x3xf32>) -> tensor<?x3xf32, #stablehlo.bounds<16, ?>>
  return %y : tensor<?x3xf32, #stablehlo.bounds<16, ?>>
}
