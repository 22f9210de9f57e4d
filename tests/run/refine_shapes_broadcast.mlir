// RUN-ARGS: --input="2x3xf32=1 2 3 4 5 6" --input="3xf32=10 20 30"
// OUTPUT: 2x3xf32=[[11 22 33][14 25 36]]
// OUTPUT: 6xi32=[0 1 2 3 4 5]
// Shape arithmetic as JAX emits it for shape-polymorphic code, on static
// inputs: refine_shapes folds it, makes the dynamic ops static and
// propagates the static types to the add, the iota and the signature.
func.func @main(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> (tensor<?x3xf32>, tensor<?xi32>) {
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<2x3xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %c3 = stablehlo.constant dense<3> : tensor<1xi32>
  %shape32 = stablehlo.concatenate %n1, %c3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %shape = stablehlo.convert %shape32 : (tensor<2xi32>) -> tensor<2xi64>
  %bb = stablehlo.dynamic_broadcast_in_dim %b, %shape, dims = [1] : (tensor<3xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  %xd = stablehlo.convert %x : (tensor<2x3xf32>) -> tensor<?x3xf32>
  %s = stablehlo.add %xd, %bb : tensor<?x3xf32>
  %k = stablehlo.constant dense<3> : tensor<i32>
  %total = stablehlo.multiply %n, %k : tensor<i32>
  %t1 = stablehlo.reshape %total : (tensor<i32>) -> tensor<1xi32>
  %i = stablehlo.dynamic_iota %t1, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>
  return %s, %i : tensor<?x3xf32>, tensor<?xi32>
}
