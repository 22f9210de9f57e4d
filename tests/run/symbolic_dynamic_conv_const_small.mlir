// dynamic_conv on symbolic sizes (--symbolic; tests/run.py also runs it
// specialized) with constant padding [[1, 0], [0, 2]] (a convolution once
// folded), 2-d NHWC, batch, height and width symbolic (1x2x1 here),
// strides [1, 2], rhs_dilation [2, 1], in a module that says
// mhlo.num_partitions = 1 (one process: bound symbolically, not a grid).
// Written by gen_symbolic_dynamic_conv.py (numpy 1.24.2 values).
// RUN-ARGS: --symbolic
// REREAD
// RUN-ARGS: --input="1x2x1x2xf32=3 1 1 3"
// OUTPUT: 1x1x1x3xf32=[[[[-4 5 1]]]]
module @jit_conv attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%a0: tensor<?x?x?x2xf32>) -> tensor<?x?x?x3xf32> {
    %v1 = stablehlo.constant dense<[[[[0.0, 1.0, 2.0], [-1.0, -2.0, -1.0]], [[-1.0, 2.0, 2.0], [-2.0, 0.0, 2.0]], [[-2.0, 1.0, -2.0], [0.0, 2.0, -1.0]]], [[[-1.0, -1.0, 1.0], [-1.0, 2.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 2.0]], [[2.0, 1.0, 1.0], [1.0, -1.0, 2.0]]]]> : tensor<2x3x2x3xf32>
    %v2 = stablehlo.constant dense<[[1, 0], [0, 2]]> : tensor<2x2xi64>
    %v3 = "stablehlo.dynamic_conv"(%a0, %v1, %v2) {window_strides = array<i64: 1, 2>, rhs_dilation = array<i64: 2, 1>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x?x?x2xf32>, tensor<2x3x2x3xf32>, tensor<2x2xi64>) -> tensor<?x?x?x3xf32>
    return %v3 : tensor<?x?x?x3xf32>
  }
}
