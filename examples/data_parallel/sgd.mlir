// One SGD step of a small MLP, data parallel over 4 replicas: each replica
// holds 8 of the 32 examples of the batch and the same weights, computes
// its gradient of the batch loss 0.5 * mean((relu(x W1) W2 - t)^2), the
// gradients are summed over the replicas (one all_reduce of both), and
// every replica applies the same update W -= 0.1 * grad.
module @sgd attributes {mhlo.num_replicas = 4 : i32, mhlo.num_partitions = 1 : i32} {
  func.func public @step(%x: tensor<8x4xf32>, %t: tensor<8x1xf32>, %w1: tensor<4x8xf32>,
                         %w2: tensor<8x1xf32>) -> (tensor<4x8xf32>, tensor<8x1xf32>) {
    %z = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<8x8xf32>
    %h = stablehlo.maximum %z, %zero : tensor<8x8xf32>
    %y = stablehlo.dot_general %h, %w2, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %e = stablehlo.subtract %y, %t : tensor<8x1xf32>
    %inv_n = stablehlo.constant dense<0.03125> : tensor<8x1xf32>
    %dy = stablehlo.multiply %e, %inv_n : tensor<8x1xf32>
    %gw2 = stablehlo.dot_general %h, %dy, contracting_dims = [0] x [0] : (tensor<8x8xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %dh = stablehlo.dot_general %dy, %w2, contracting_dims = [1] x [1] : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x8xf32>
    %active = stablehlo.compare GT, %z, %zero : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xi1>
    %dz = stablehlo.select %active, %dh, %zero : tensor<8x8xi1>, tensor<8x8xf32>
    %gw1 = stablehlo.dot_general %x, %dz, contracting_dims = [0] x [0] : (tensor<8x4xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    %g:2 = "stablehlo.all_reduce"(%gw1, %gw2) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4x8xf32>, tensor<8x1xf32>) -> (tensor<4x8xf32>, tensor<8x1xf32>)
    %lr1 = stablehlo.constant dense<0.1> : tensor<4x8xf32>
    %lr2 = stablehlo.constant dense<0.1> : tensor<8x1xf32>
    %d1 = stablehlo.multiply %g#0, %lr1 : tensor<4x8xf32>
    %d2 = stablehlo.multiply %g#1, %lr2 : tensor<8x1xf32>
    %n1 = stablehlo.subtract %w1, %d1 : tensor<4x8xf32>
    %n2 = stablehlo.subtract %w2, %d2 : tensor<8x1xf32>
    return %n1, %n2 : tensor<4x8xf32>, tensor<8x1xf32>
  }
}
