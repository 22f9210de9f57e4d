// dynamic_conv on symbolic sizes (--symbolic; tests/run.py also runs it
// specialized) with constant padding [[1, 0], [0, 2]] (a convolution once
// folded), 2-d NHWC, batch, height and width symbolic (2x5x7 here),
// strides [1, 2], rhs_dilation [2, 1], in a module that says
// mhlo.num_partitions = 1 (one process: bound symbolically, not a grid).
// Written by gen_symbolic_dynamic_conv.py (numpy 1.24.2 values).
// RUN-ARGS: --symbolic
// REREAD
// RUN-ARGS: --input="2x5x7x2xf32=0 0 0 -1 3 -1 1 -1 0 3 -2 1 -1 1 2 -1 1 1 0 -3 1 -3 3 2 2 -3 3 3 1 2 2 2 -2 -3 -2 -2 0 2 2 0 0 1 2 -3 2 -2 1 0 2 2 -2 0 -3 -3 0 3 -2 -3 3 0 -3 1 -1 -1 -1 -1 2 3 -2 0 1 0 0 3 -2 -2 2 3 -1 -1 2 -1 0 3 -1 -3 0 3 2 2 2 3 -1 -3 1 -2 1 2 0 0 0 -3 3 1 -3 2 3 3 0 -2 -1 -2 3 2 0 -3 -2 -2 2 0 -2 -1 -3 0 -2 3 0 1 3 1 -1 1 -3 -2 -1 0 1 3 -2 3"
// OUTPUT: 2x4x4x3xf32=[[[[-14 12 -6][1 10 -13][7 3 -10][0 -3 0]][[-11 -3 5][-1 4 1][11 -2 3][4 -3 2]][[-14 13 -8][-9 1 -6][3 -9 15][0 -3 18]][[-1 4 11][19 -7 -7][-8 4 10][4 -2 6]]][[[-8 5 -3][-11 6 2][3 5 -8][2 -3 2]][[4 4 -2][-6 -7 -5][0 4 -4][-2 3 4]][[-3 -7 -13][-9 4 15][10 -14 -1][8 -7 16]][[0 -2 0][1 -16 5][2 -4 20][12 -9 4]]]]
module @jit_conv attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%a0: tensor<?x?x?x2xf32>) -> tensor<?x?x?x3xf32> {
    %v1 = stablehlo.constant dense<[[[[-2.0, 1.0, 2.0], [0.0, 0.0, 2.0]], [[-2.0, 1.0, 2.0], [-1.0, -1.0, 0.0]], [[-2.0, -2.0, 0.0], [0.0, 1.0, -1.0]]], [[[-2.0, 1.0, -2.0], [2.0, -2.0, 2.0]], [[0.0, 2.0, -1.0], [-2.0, 0.0, 1.0]], [[-1.0, 2.0, -1.0], [2.0, -2.0, 0.0]]]]> : tensor<2x3x2x3xf32>
    %v2 = stablehlo.constant dense<[[1, 0], [0, 2]]> : tensor<2x2xi64>
    %v3 = "stablehlo.dynamic_conv"(%a0, %v1, %v2) {window_strides = array<i64: 1, 2>, rhs_dilation = array<i64: 2, 1>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x?x?x2xf32>, tensor<2x3x2x3xf32>, tensor<2x2xi64>) -> tensor<?x?x?x3xf32>
    return %v3 : tensor<?x?x?x3xf32>
  }
}
