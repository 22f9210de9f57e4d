// A shape-polymorphic program as jax.export writes it (dimension argument
// %b first, `?` sizes): shloc run specializes it to the inputs' shapes, %b
// following from x (x + broadcast(bias, [b, 2]) needs b = 3). Expected
// values by hand: y = x + bias; its 2x3 reshape; iota(b); dim(x, 0).
// RUN-ARGS: --input="3x2xf32=1 2 3 4 5 6" --input="2xf32=10 20"
// OUTPUT: 3x2xf32=[[11 22][13 24][15 26]]
// OUTPUT: 2x3xf32=[[11 22 13][24 15 26]]
// OUTPUT: 3xi32=[0 1 2]
// OUTPUT: i32=3
func.func public @main(%b: tensor<i64>, %x: tensor<?x2xf32>, %bias: tensor<2xf32>) -> (tensor<?x2xf32>, tensor<2x?xf32>, tensor<?xi32>, tensor<i32>) {
  %b32 = stablehlo.convert %b : (tensor<i64>) -> tensor<i32>
  %b1 = stablehlo.reshape %b32 : (tensor<i32>) -> tensor<1xi32>
  %two = stablehlo.constant dense<2> : tensor<1xi32>
  %shape = stablehlo.concatenate %b1, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %bb = stablehlo.dynamic_broadcast_in_dim %bias, %shape, dims = [1] : (tensor<2xf32>, tensor<2xi32>) -> tensor<?x2xf32>
  %y = stablehlo.add %x, %bb : tensor<?x2xf32>
  %tshape = stablehlo.concatenate %two, %b1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %r = stablehlo.dynamic_reshape %y, %tshape : (tensor<?x2xf32>, tensor<2xi32>) -> tensor<2x?xf32>
  %io = stablehlo.dynamic_iota %b1, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x2xf32>) -> tensor<i32>
  return %y, %r, %io, %n : tensor<?x2xf32>, tensor<2x?xf32>, tensor<?xi32>, tensor<i32>
}
