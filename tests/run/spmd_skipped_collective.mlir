// A process that skips a collective: replica 1 takes the other branch and
// returns, so replica 0's all_reduce fails naming the op, its location and
// both processes (the runtime sees the peer return without reaching it).
// RUN-ARGS: --replicas=2 --grid-timeout=2000 --input="f32=1" --input="f32=2"
// ERROR: stablehlo.all_reduce at
// ERROR: spmd_skipped_collective.mlir:13:10 on process (0,0)
// ERROR: process (1,0) returned without reaching it
func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %id = stablehlo.replica_id : tensor<ui32>
  %zero = stablehlo.constant dense<0> : tensor<ui32>
  %first = stablehlo.compare EQ, %id, %zero : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
  %r = "stablehlo.if"(%first) ({
    %s = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %c = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %c : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<f32>) -> tensor<f32>
    stablehlo.return %s : tensor<f32>
  }, {
    stablehlo.return %x : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  return %r : tensor<f32>
}
