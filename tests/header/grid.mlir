// A grid program for the header test: an all_reduce with a max region over
// four replicas, the process's replica_id, and a permute around the ring.
module @grd attributes {mhlo.num_replicas = 4 : i32, mhlo.num_partitions = 1 : i32} {
  func.func public @step(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<ui32>, tensor<3xf32>) {
    %m = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %r = stablehlo.maximum %a, %b : tensor<f32>
        stablehlo.return %r : tensor<f32>
    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<3xf32>) -> tensor<3xf32>
    %id = stablehlo.replica_id : tensor<ui32>
    %p = "stablehlo.collective_permute"(%x) {
      source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0]]> : tensor<4x2xi64>
    } : (tensor<3xf32>) -> tensor<3xf32>
    return %m, %id, %p : tensor<3xf32>, tensor<ui32>, tensor<3xf32>
  }
}
