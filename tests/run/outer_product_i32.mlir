// An outer product per batch, broadcast_in_dim + multiply in i32: the
// elementwise form of tests/run/dot_general_i32_k1_6x3.mlir, miscompiled
// the same way by LLVM 19's SLP vectorizer (see codegen/target.c).
// Expected values: numpy (a * b with broadcasting).
// RUN-ARGS: --input="4x5x1xi32=9 3 4 8 2 6 7 -6 -9 -4 -5 8 9 -10 0 7 -8 6 -8 -1"
// RUN-ARGS: --input="4x1x3xi32=7 -4 -3 -5 5 -5 10 -1 0 0 2 1"
// OUTPUT: 4x5x3xi32=[[[63 -36 -27][21 -12 -9][28 -16 -12][56 -32 -24][14 -8 -6]][[-30 30 -30][-35 35 -35][30 -30 30][45 -45 45][20 -20 20]][[-50 5 0][80 -8 0][90 -9 0][-100 10 0][0 0 0]][[0 14 7][0 -16 -8][0 12 6][0 -16 -8][0 -2 -1]]]
func.func @main(%a: tensor<4x5x1xi32>, %b: tensor<4x1x3xi32>) -> tensor<4x5x3xi32> {
  %x = stablehlo.broadcast_in_dim %a, dims = [0, 1, 2] : (tensor<4x5x1xi32>) -> tensor<4x5x3xi32>
  %y = stablehlo.broadcast_in_dim %b, dims = [0, 1, 2] : (tensor<4x1x3xi32>) -> tensor<4x5x3xi32>
  %r = stablehlo.multiply %x, %y : tensor<4x5x3xi32>
  func.return %r : tensor<4x5x3xi32>
}
