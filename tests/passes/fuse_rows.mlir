// Row kernels (docs/passes.md "fuse"):
//  - softmax: the max and sum reduces over the last dimension, the exp
//    (two users) and the divide become one kernel, the divide's;
//  - layernorm (mean, then variance of x - mean, through [.., 1] shapes):
//    one kernel; the residual sum %h it reads is read by three ops and no
//    reduce feeds it, so it stays a kernel of its own;
//  - a row sum that is also returned, or read in another row (through a
//    transpose), stays a kernel of its own; those two sums of %y are
//    siblings (one kernel, one loop over each row).
func.func @main(%x: tensor<4x8xf32>, %a: tensor<2x3x16xf32>, %b: tensor<2x3x16xf32>, %y: tensor<8x8xf32>)
    -> (tensor<4x8xf32>, tensor<2x3x16xf32>, tensor<8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
  %d = stablehlo.subtract %x, %mb : tensor<4x8xf32>
  %e = stablehlo.exponential %d : tensor<4x8xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32>
  %sm = stablehlo.divide %e, %sb : tensor<4x8xf32>
  %h = stablehlo.add %a, %b : tensor<2x3x16xf32>
  %hs = stablehlo.reduce(%h init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<2x3x16xf32>, tensor<f32>) -> tensor<2x3xf32>
  %hs1 = stablehlo.broadcast_in_dim %hs, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3x1xf32>
  %n = stablehlo.constant dense<16.0> : tensor<2x3x1xf32>
  %mean = stablehlo.divide %hs1, %n : tensor<2x3x1xf32>
  %meanb = stablehlo.broadcast_in_dim %mean, dims = [0, 1, 2] : (tensor<2x3x1xf32>) -> tensor<2x3x16xf32>
  %c = stablehlo.subtract %h, %meanb : tensor<2x3x16xf32>
  %sq = stablehlo.multiply %c, %c : tensor<2x3x16xf32>
  %v = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<2x3x16xf32>, tensor<f32>) -> tensor<2x3xf32>
  %v1 = stablehlo.reshape %v : (tensor<2x3xf32>) -> tensor<2x3x1xf32>
  %var = stablehlo.divide %v1, %n : tensor<2x3x1xf32>
  %rs = stablehlo.rsqrt %var : tensor<2x3x1xf32>
  %rsb = stablehlo.broadcast_in_dim %rs, dims = [0, 1, 2] : (tensor<2x3x1xf32>) -> tensor<2x3x16xf32>
  %c2 = stablehlo.subtract %h, %meanb : tensor<2x3x16xf32>
  %ln = stablehlo.multiply %c2, %rsb : tensor<2x3x16xf32>
  %ys = stablehlo.reduce(%y init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
  %ysb = stablehlo.broadcast_in_dim %ys, dims = [0] : (tensor<8xf32>) -> tensor<8x8xf32>
  %yd = stablehlo.divide %y, %ysb : tensor<8x8xf32>
  %yt = stablehlo.reduce(%y init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
  %ytb = stablehlo.broadcast_in_dim %yt, dims = [1] : (tensor<8xf32>) -> tensor<8x8xf32>
  %ytd = stablehlo.divide %y, %ytb : tensor<8x8xf32>
  return %sm, %ln, %ys, %yd, %ytd : tensor<4x8xf32>, tensor<2x3x16xf32>, tensor<8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
