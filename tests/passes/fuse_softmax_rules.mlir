// The fusion rules on a softmax-like program (docs/passes.md "fuse"):
//  - the transpose and the exp feed the reduce, which reads each element
//    once: both fused, the reduce is the kernel;
//  - %c = x - broadcast(sum) has two users but streams one buffer of its
//    size: recomputed in both;
//  - %s = x + y has two users and streams two buffers: stored;
//  - %big = exp(z) feeding a broadcast is costly: stored, not recomputed per
//    element of the broadcast;
//  - %u and %v read %c and %s over one index space: siblings, one kernel.
func.func @main(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>, %z: tensor<16xf32>) -> (tensor<8xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<4x16xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %e = stablehlo.exponential %t : tensor<16x8xf32>
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<16x8xf32>, tensor<f32>) -> tensor<8xf32>
  %b = stablehlo.broadcast_in_dim %sum, dims = [0] : (tensor<8xf32>) -> tensor<8x16xf32>
  %c = stablehlo.subtract %x, %b : tensor<8x16xf32>
  %s = stablehlo.add %x, %y : tensor<8x16xf32>
  %u = stablehlo.multiply %c, %s : tensor<8x16xf32>
  %v = stablehlo.divide %c, %s : tensor<8x16xf32>
  %big = stablehlo.exponential %z : tensor<16xf32>
  %w = stablehlo.broadcast_in_dim %big, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>
  return %sum, %u, %v, %w : tensor<8xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<4x16xf32>
}
