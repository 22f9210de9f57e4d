// convolution on symbolic sizes (--symbolic; tests/run.py also runs it
// specialized): a 1-d NWC x WIO convolution whose batch and width are
// symbols, with stride 2 and padding [1, 1], and with lhs dilation 2 and
// padding [0, 1]. Expected values from numpy (zero-padded, dilated input,
// sum over the window) for lhs = 2x5x2 iota + 1 and the kernel below.
// RUN-ARGS: --symbolic --input="2x5x2xf32=1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20" --input="3x2x2xf32=1 0 0 1 1 1 0 -1 2 0 0 1"
// OUTPUT: 2x3x2xf32=[[[7 3][22 11][16 7]][[37 13][62 31][36 17]]]
// OUTPUT: 2x8x2xf32=[[[7 6][3 -1][13 10][5 -1][19 14][7 -1][25 18][9 -1]][[37 26][13 -1][43 30][15 -1][49 34][17 -1][55 38][19 -1]]]
func.func public @main(%x: tensor<?x?x2xf32>, %k: tensor<3x2x2xf32>) -> (tensor<?x?x2xf32>, tensor<?x?x2xf32>) {
  %a = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2], pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x?x2xf32>, tensor<3x2x2xf32>) -> tensor<?x?x2xf32>
  %b = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[0, 1]], lhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x?x2xf32>, tensor<3x2x2xf32>) -> tensor<?x?x2xf32>
  return %a, %b : tensor<?x?x2xf32>, tensor<?x?x2xf32>
}
