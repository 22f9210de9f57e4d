// A replica id beyond the module's grid (mhlo.num_replicas = 2) is a
// verifier error at the op, as is a process in two groups, and a
// collective_permute target beyond num_partitions (channel_id > 0:
// cross_partition).
// ERROR: spmd_group_out_of_range.mlir:10:10: error: stablehlo.all_reduce: process id 2 is out of range: num_replicas is 2
// ERROR: spmd_group_out_of_range.mlir:15:10: error: stablehlo.all_gather: replica id #1 seen more than once
// ERROR: spmd_group_out_of_range.mlir:16:10: error: stablehlo.collective_permute: process id 1 is out of range: num_partitions is 1
module @m attributes {mhlo.num_replicas = 2 : i32, mhlo.num_partitions = 1 : i32} {
  func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<4xf32>, tensor<2xf32>) {
    %r = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %c = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %c : tensor<f32>
    }) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<2xf32>) -> tensor<2xf32>
    %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} : (tensor<2xf32>) -> tensor<4xf32>
    %p = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>,
       channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<2xf32>) -> tensor<2xf32>
    return %r, %g, %p : tensor<2xf32>, tensor<4xf32>, tensor<2xf32>
  }
}
