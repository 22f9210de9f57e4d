// A fault: the two processes meet in an all_reduce with operands of other
// shapes. The case must FAIL, over threads and under MPI, with a message
// naming the op, its location and the processes; never hang or
// read out of bounds.
// FAIL: stablehlo.all_reduce at
// FAIL: mismatched_shapes.mlir:
// FAIL: process (1,0)
module @mismatch {
  func.func @two(%x : tensor<2xf32>) -> tensor<2xf32> {
    %r = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %c = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %c : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
    return %r : tensor<2xf32>
  }
  func.func @three(%x : tensor<3xf32>) -> tensor<3xf32> {
    %r = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %c = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %c : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<3xf32>) -> tensor<3xf32>
    return %r : tensor<3xf32>
  }
  func.func @main() {
    %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %y = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %r:2 = "interpreter.run_parallel"(%x, %y) {programs = [[@two], [@three]]}
        : (tensor<2xf32>, tensor<3xf32>) -> (tensor<2xf32>, tensor<3xf32>)
    check.expect_eq_const %r#0, dense<[2.0, 4.0]> : tensor<2xf32>
    func.return
  }
}
