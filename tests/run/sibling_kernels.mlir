// Sibling kernels (passes/fuse.c fuse_siblings): independent roots reading
// the same input over the same index space are computed by one kernel,
// the first's: max(x, 0), |x| and x + y in one loop nest, the row sum and
// the row max of x in one loop over each row (KERNELS: 2 instead of 5).
// Expected values by hand: x = [[-2 -1 0 1 2] [3 -4 5 -6 7]], y = 10.
// RUN-ARGS: --input="2x5xf32=-2 -1 0 1 2 3 -4 5 -6 7" --input="2x5xf32=10 10 10 10 10 10 10 10 10 10"
// KERNELS: 2
// OUTPUT: 2x5xf32=[[0 0 0 1 2][3 0 5 0 7]]
// OUTPUT: 2x5xf32=[[2 1 0 1 2][3 4 5 6 7]]
// OUTPUT: 2xf32=[0 5]
// OUTPUT: 2xf32=[2 7]
// OUTPUT: 2x5xf32=[[8 9 10 11 12][13 6 15 4 17]]
func.func @main(%x: tensor<2x5xf32>, %y: tensor<2x5xf32>)
    -> (tensor<2x5xf32>, tensor<2x5xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x5xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<2x5xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %r = stablehlo.maximum %x, %zero : tensor<2x5xf32>
  %a = stablehlo.abs %x : tensor<2x5xf32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x5xf32>, tensor<f32>) -> tensor<2xf32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<2x5xf32>, tensor<f32>) -> tensor<2xf32>
  %t = stablehlo.add %x, %y : tensor<2x5xf32>
  return %r, %a, %s, %m, %t : tensor<2x5xf32>, tensor<2x5xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x5xf32>
}
