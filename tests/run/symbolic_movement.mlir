// Data movement on symbolic sizes (--symbolic; tests/run.py also runs it
// specialized): x (b x 2) concatenated with itself along 0, its first row
// (slice), x transposed, x broadcast to b x 2 x 2 (dims [0, 1]), x rows
// 1 .. b (real_dynamic_slice with limit dim(x, 0)), and the dimension
// argument's iota. Expected values by hand for x = [[1 2] [3 4] [5 6]].
// RUN-ARGS: --symbolic --input="i64=3" --input="3x2xi32=1 2 3 4 5 6"
// OUTPUT: 6x2xi32=[[1 2][3 4][5 6][1 2][3 4][5 6]]
// OUTPUT: 1x2xi32=[[1 2]]
// OUTPUT: 2x3xi32=[[1 3 5][2 4 6]]
// OUTPUT: 3x2x2xi32=[[[1 1][2 2]][[3 3][4 4]][[5 5][6 6]]]
// OUTPUT: 2x2xi32=[[3 4][5 6]]
// OUTPUT: 3xf32=[0 1 2]
func.func public @main(%b: tensor<i64>, %x: tensor<?x2xi32>) -> (tensor<?x2xi32>, tensor<1x2xi32>, tensor<2x?xi32>, tensor<?x2x2xi32>, tensor<?x2xi32>, tensor<?xf32>) {
  %c = stablehlo.concatenate %x, %x, dim = 0 : (tensor<?x2xi32>, tensor<?x2xi32>) -> tensor<?x2xi32>
  %s = stablehlo.slice %x [0:1, 0:2] : (tensor<?x2xi32>) -> tensor<1x2xi32>
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<?x2xi32>) -> tensor<2x?xi32>
  %b32 = stablehlo.convert %b : (tensor<i64>) -> tensor<i32>
  %b1 = stablehlo.reshape %b32 : (tensor<i32>) -> tensor<1xi32>
  %two = stablehlo.constant dense<2> : tensor<1xi32>
  %shape = stablehlo.concatenate %b1, %two, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  %bc = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [0, 1] : (tensor<?x2xi32>, tensor<3xi32>) -> tensor<?x2x2xi32>
  %start = stablehlo.constant dense<[1, 0]> : tensor<2xi32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x2xi32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %limit = stablehlo.concatenate %n1, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %one = stablehlo.constant dense<1> : tensor<2xi32>
  %rs = stablehlo.real_dynamic_slice %x, %start, %limit, %one : (tensor<?x2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xi32>
  %io = stablehlo.dynamic_iota %b1, dim = 0 : (tensor<1xi32>) -> tensor<?xf32>
  return %c, %s, %t, %bc, %rs, %io : tensor<?x2xi32>, tensor<1x2xi32>, tensor<2x?xi32>, tensor<?x2x2xi32>, tensor<?x2xi32>, tensor<?xf32>
}
