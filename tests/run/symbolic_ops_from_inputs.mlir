// A shape-polymorphic program as jax.export writes it (dimension argument
// %b first, `?` sizes), compiled once with symbolic sizes (--symbolic):
// b is bound from the input %b and x's size 0 from x, which the program
// requires equal (x + broadcast(bias, [b, 2])). tests/run.py also runs
// every symbolic_*.mlir specialized to its inputs and wants the same
// output. Expected values by hand: y = x + bias; its 2x3 reshape; iota(b);
// dim(x, 0); max(y, 12).
// RUN-ARGS: --symbolic --input="i64=3" --input="3x2xf32=1 2 3 4 5 6" --input="2xf32=10 20"
// OUTPUT: 3x2xf32=[[11 22][13 24][15 26]]
// OUTPUT: 2x3xf32=[[11 22 13][24 15 26]]
// OUTPUT: 3xi32=[0 1 2]
// OUTPUT: i32=3
// OUTPUT: 3x2xf32=[[12 22][13 24][15 26]]
func.func public @main(%b: tensor<i64>, %x: tensor<?x2xf32>, %bias: tensor<2xf32>) -> (tensor<?x2xf32>, tensor<2x?xf32>, tensor<?xi32>, tensor<i32>, tensor<?x2xf32>) {
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
  %twelve = stablehlo.constant dense<12.0> : tensor<f32>
  %tw = stablehlo.dynamic_broadcast_in_dim %twelve, %shape, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x2xf32>
  %mx = stablehlo.maximum %y, %tw : tensor<?x2xf32>
  return %y, %r, %io, %n, %mx : tensor<?x2xf32>, tensor<2x?xf32>, tensor<?xi32>, tensor<i32>, tensor<?x2xf32>
}
