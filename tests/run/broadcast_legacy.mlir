// stablehlo.broadcast (the dialect's legacy op): the result's shape is
// broadcast_sizes followed by the operand's, each result element the
// operand element at the trailing indices. An i32 matrix, an f32 vector
// broadcast and fused into an add, a scalar, empty broadcast_sizes, and a
// zero size. Expected values: numpy.broadcast_to.
// RUN-ARGS: --input="2x3xi32=1 2 3 4 5 6" --input="4xf32=0.5 -1.5 2.25 4" --input="f32=7"
// OUTPUT: 4x2x3xi32=[[[1 2 3][4 5 6]][[1 2 3][4 5 6]][[1 2 3][4 5 6]][[1 2 3][4 5 6]]]
// OUTPUT: 2x1x4xf32=[[[1 -3 4.5 8]][[1 -3 4.5 8]]]
// OUTPUT: 3xf32=[7 7 7]
// OUTPUT: 2x3xi32=[[1 2 3][4 5 6]]
// OUTPUT: 0x2x3xi32=[]
func.func @main(%x: tensor<2x3xi32>, %y: tensor<4xf32>, %s: tensor<f32>) -> (tensor<4x2x3xi32>, tensor<2x1x4xf32>, tensor<3xf32>, tensor<2x3xi32>, tensor<0x2x3xi32>) {
  %0 = stablehlo.broadcast %x, sizes = [4] : (tensor<2x3xi32>) -> tensor<4x2x3xi32>
  %1 = "stablehlo.broadcast"(%y) {broadcast_sizes = array<i64: 2, 1>} : (tensor<4xf32>) -> tensor<2x1x4xf32>
  %2 = stablehlo.add %1, %1 : tensor<2x1x4xf32>
  %3 = stablehlo.broadcast %s, sizes = [3] : (tensor<f32>) -> tensor<3xf32>
  %4 = stablehlo.broadcast %x, sizes = [] : (tensor<2x3xi32>) -> tensor<2x3xi32>
  %5 = stablehlo.broadcast %x, sizes = [0] : (tensor<2x3xi32>) -> tensor<0x2x3xi32>
  func.return %0, %2, %3, %4, %5 : tensor<4x2x3xi32>, tensor<2x1x4xf32>, tensor<3xf32>, tensor<2x3xi32>, tensor<0x2x3xi32>
}
