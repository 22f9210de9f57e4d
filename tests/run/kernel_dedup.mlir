// Two identical layers (a projection with a shifted ReLU as its epilogue,
// then row sums) on different buffers: codegen emits each kernel once and
// calls it with each layer's buffers (KERNELS), and each call computes its
// own layer's values. Expected values by hand: x @ w1 = [[4 5 6 6] [10 11
// 12 15]], x @ w2 = [[1 2 3 0] [4 5 6 0]], minus 5, at least 0.
// RUN-ARGS: --input="2x3xf32=1 2 3 4 5 6"
// RUN-ARGS: --input="3x4xf32=1 0 0 1 0 1 0 1 1 1 2 1"
// RUN-ARGS: --input="3x4xf32=1 0 0 0 0 1 0 0 0 0 1 0"
// KERNELS: 2
// OUTPUT: 2x4xf32=[[0 0 1 1][5 6 7 10]]
// OUTPUT: 2x4xf32=[[0 0 0 0][0 0 1 0]]
// OUTPUT: 2xf32=[2 28]
// OUTPUT: 2xf32=[0 1]
func.func @main(%x: tensor<2x3xf32>, %w1: tensor<3x4xf32>, %w2: tensor<3x4xf32>)
    -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2xf32>, tensor<2xf32>) {
  %five = stablehlo.constant dense<5.0> : tensor<2x4xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<2x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %a = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %a1 = stablehlo.subtract %a, %five : tensor<2x4xf32>
  %ra = stablehlo.maximum %a1, %zero : tensor<2x4xf32>
  %b = stablehlo.dot_general %x, %w2, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %b1 = stablehlo.subtract %b, %five : tensor<2x4xf32>
  %rb = stablehlo.maximum %b1, %zero : tensor<2x4xf32>
  %sa = stablehlo.reduce(%ra init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
  %sb = stablehlo.reduce(%rb init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
  return %ra, %rb, %sa, %sb : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2xf32>, tensor<2xf32>
}
