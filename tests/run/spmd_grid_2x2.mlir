// A 2x2 grid (rows replicas, columns partitions): an all_reduce over every
// process (flattened_ids) three times in a while loop, an all_gather across
// replicas (no channel: cross_replica, so partition p gathers processes
// (0,p) and (1,p)), and the process's partition_id. Inputs and outputs are
// per process in row-major order: (0,0), (0,1), (1,0), (1,1).
// Sums: x0+x1+x2+x3 = [16 20]; each iteration multiplies by 4 after the
// first: [16 20], [64 80], [256 320].
// RUN-ARGS: --replicas=2 --partitions=2 --input="2xi32=1 2" --input="2xi32=3 4"
// RUN-ARGS: --input="2xi32=5 6" --input="2xi32=7 8"
// OUTPUT: 2xi32=[256 320]
// OUTPUT: 4xi32=[1 2 5 6]
// OUTPUT: ui32=0
// OUTPUT: 2xi32=[256 320]
// OUTPUT: 4xi32=[3 4 7 8]
// OUTPUT: ui32=1
// OUTPUT: 2xi32=[256 320]
// OUTPUT: 4xi32=[1 2 5 6]
// OUTPUT: ui32=0
// OUTPUT: 2xi32=[256 320]
// OUTPUT: 4xi32=[3 4 7 8]
// OUTPUT: ui32=1
func.func @main(%x: tensor<2xi32>) -> (tensor<2xi32>, tensor<4xi32>, tensor<ui32>) {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %s = %x) : tensor<i32>, tensor<2xi32>
    cond {
      %p = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %n = stablehlo.add %i, %one : tensor<i32>
      %t = "stablehlo.all_reduce"(%s) ({
        ^bb0(%a: tensor<i32>, %b: tensor<i32>):
          %c = stablehlo.add %a, %b : tensor<i32>
          stablehlo.return %c : tensor<i32>
      }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>,
          channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
          use_global_device_ids} : (tensor<2xi32>) -> tensor<2xi32>
      stablehlo.return %n, %t : tensor<i32>, tensor<2xi32>
    }
  %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64,
        replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<4xi32>
  %p = stablehlo.partition_id : tensor<ui32>
  return %r#1, %g, %p : tensor<2xi32>, tensor<4xi32>, tensor<ui32>
}
