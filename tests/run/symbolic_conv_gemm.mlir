// Convolutions on symbolic batch and spatial sizes (--symbolic; tests/run.py
// also runs them specialized) on the implicit GEMM: a 3 x 2 kernel with
// stride [2, 1], padding [[1, 1], [0, 1]] and window dilation [1, 2], then
// bias + ReLU as its epilogue (the bias broadcast computed after the
// convolution, as JAX exports it), and with padding [[2, 0], [1, 1]] alone,
// each on a 1x7x6x3 and a 3x5x8x3 input; and with lhs dilation [2, 1] (the
// elemental generator, not the GEMM) and the same epilogue.
// Written by gen_symbolic_conv.py (numpy 1.24.2 values).
// RUN-ARGS: --symbolic
// RUN-ARGS: --input="1x7x6x3xf32=-1 3 -3 -3 0 1 -1 -1 -1 -2 3 -2 -1 -2 2 1 -2 3 1 0 -1 -3 -2 -3 -1 -1 3 -2 1 1 0 0 2 3 0 -1 -3 -1 -3 0 2 3 0 2 -2 0 3 -1 -2 -3 2 -2 -1 0 2 0 0 3 -3 -3 1 2 -1 2 0 3 1 3 3 3 0 -3 1 -2 0 2 1 2 -2 -3 3 0 -2 -3 1 1 -3 2 -3 -2 3 0 2 -3 -3 -3 -2 -1 -3 -2 3 0 2 -1 2 3 1 -3 1 3 -3 2 -3 2 -1 -1 1 -1 2 3 0 2 -2 1 1 3"
// RUN-ARGS: --input="3x5x8x3xf32=3 2 0 -1 0 -3 -1 0 2 2 -2 -3 1 2 -2 1 1 2 0 -2 2 -1 0 -3 3 3 0 -3 -3 2 3 -2 2 0 2 -2 2 1 -3 3 3 3 -3 -1 -1 3 -2 1 0 -1 -2 3 -2 0 1 0 -2 2 0 3 1 3 -3 -1 3 1 2 -2 2 -3 2 -1 3 -1 -2 -3 -3 -2 2 -3 -3 3 1 -1 1 -2 3 0 -3 3 -1 2 2 -3 -1 1 -1 3 -2 1 -3 -3 0 1 -3 -2 0 0 2 2 -1 -3 1 2 3 2 -2 -2 1 -1 1 -2 0 -3 -1 3 -2 0 -1 -3 0 -3 3 -1 -2 1 3 2 2 1 -1 3 1 2 -3 -2 3 3 0 -2 -2 3 2 -3 3 1 2 2 3 -3 -2 0 0 3 0 -3 1 1 -2 0 1 -3 0 -1 -1 -2 1 -2 -2 0 -1 2 3 -1 -1 -3 -1 -3 3 -3 3 2 3 2 -3 -3 2 3 -2 -1 1 1 2 0 2 -1 -3 -1 1 3 -2 -3 2 0 -2 0 -2 3 -1 -2 0 -1 3 0 -2 -3 2 3 -1 3 3 -3 1 -2 -2 0 0 -2 2 3 2 -1 0 -1 -1 -3 2 -2 -3 -1 1 -1 -1 0 1 -1 -3 3 -2 -1 -1 3 -1 -3 3 1 2 -1 -3 -1 1 -2 3 -2 2 -3 -3 2 2 -2 2 2 3 -3 1 -2 0 -3 -2 1 1 -1 -2 -2 -1 -1 0 2 -3 -3 0 2 -2 -3 0 -3 -2 2 2 -2 3 2 1 1 3 -3 3 1 1 0 2 2 -3 -2 0 -1 3 1 2 3 3 3 -1 -1 -2 1 -3 1 -3 1 1 0 1 -1 -2 2 3 -1 -2 0 -2 -2 1 -3 -3 3 0 2 1 -1"
// OUTPUT: 1x4x5x5xf32=[[[[1 22 0 12 0][8 4 0 11 0][0 16 0 6 0][0 5 10 0 2][0 6 0 16 0]][[0 24 0 13 0][0 13 0 38 0][0 20 0 5 0][0 0 0 10 0][0 5 0 22 0]][[0 0 0 18 0][0 0 0 0 0][0 20 0 24 0][0 33 8 11 0][0 27 0 0 0]][[0 26 0 3 0][0 0 0 35 0][0 0 0 28 0][0 0 0 8 6][0 14 0 5 0]]]]
// OUTPUT: 1x7x7x5xf32=[[[[-12 -8 -8 -18 -9][15 -8 2 2 5][5 -14 -3 -13 8][-5 -4 -14 -22 -4][21 -7 9 11 12][8 9 -1 4 11][-11 2 -5 -7 -3]][[3 -7 -9 10 -5][-1 -23 6 -7 -4][33 14 -3 1 11][5 -9 -18 -4 0][18 -5 18 -14 17][-14 3 12 4 -2][-15 4 -8 20 -17]][[8 -5 1 -14 -1][19 22 -30 -13 4][6 1 17 -12 2][15 -15 -3 12 -6][5 -18 5 2 23][-2 -5 -7 -27 5][3 4 -7 -8 -6]][[7 3 -1 17 -16][2 17 16 27 8][-4 -8 -13 7 -5][27 11 12 8 7][-8 2 6 -21 -3][-15 -17 19 25 -26][-8 18 5 23 -13]][[16 22 2 4 11][2 23 10 -11 3][1 23 -4 10 0][-18 -19 1 -34 25][-36 -11 -38 -10 6][24 2 16 7 -2][-2 20 -5 2 -3]][[2 15 16 10 3][-34 -10 0 18 -6][-9 -28 -6 1 -6][-9 7 -20 -14 -15][12 13 20 4 -4][-22 32 11 -20 -15][-21 19 -2 33 -15]][[-20 0 2 -17 4][4 -9 15 45 -28][-9 43 -15 -4 -27][40 16 -2 11 8][7 -26 28 -13 20][1 14 -10 27 11][-12 -9 9 8 -4]]]]
// OUTPUT: 1x12x5x5xf32=[[[[0 0 0 9 0][0 11 0 14 0][0 5 0 26 0][0 7 0 0 0][0 13 0 13 0]][[0 0 0 0 0][18 26 0 7 4][0 7 0 0 0][0 4 0 0 2][0 2 0 14 0]][[0 14 0 16 0][0 21 0 16 0][0 0 0 26 0][0 1 0 10 0][0 14 0 5 0]][[11 39 0 12 0][0 0 0 2 0][0 14 0 0 0][0 0 0 16 0][0 2 0 0 0]][[0 12 0 16 0][0 0 0 13 0][0 2 0 10 0][0 2 0 2 0][0 11 0 27 0]][[0 0 5 28 0][0 41 0 6 0][0 17 0 30 0][0 27 0 0 0][0 0 2 18 0]][[0 31 0 0 0][0 23 0 19 0][0 5 0 0 0][0 0 0 18 0][0 5 0 0 0]][[0 30 0 35 0][0 0 0 45 0][0 0 0 0 0][0 11 0 0 0][0 16 0 32 0]][[0 13 0 14 0][0 0 0 11 0][0 23 0 20 0][0 30 0 14 0][0 33 0 0 0]][[0 0 0 17 0][0 14 0 0 0][14 22 0 4 0][8 0 4 44 1][0 7 0 27 0]][[0 6 0 17 0][0 33 0 22 0][0 8 0 24 0][0 7 0 0 0][0 16 0 10 0]][[1 40 0 48 0][0 19 0 25 0][1 11 0 2 0][0 0 0 0 0][0 20 0 38 0]]]]
// OUTPUT: 3x3x7x5xf32=[[[[0 0 0 43 0][0 32 0 0 0][0 9 0 13 0][0 34 0 28 0][0 7 0 6 0][0 0 0 40 0][0 8 0 11 0]][[0 25 0 28 0][0 23 0 9 0][0 46 0 48 0][0 0 0 47 0][0 33 0 0 0][0 0 0 0 0][0 0 0 19 0]][[0 11 0 26 0][0 2 0 41 0][0 3 0 19 0][0 0 0 22 0][0 13 0 0 0][5 7 0 15 0][0 11 0 0 0]]][[[0 9 0 0 0][0 13 0 24 0][4 28 2 2 0][1 0 0 4 13][0 15 0 4 0][0 0 0 0 11][0 0 0 14 0]][[6 13 6 16 0][0 4 0 0 0][0 0 0 0 0][3 40 0 8 0][0 14 0 10 0][1 0 0 20 0][0 14 0 0 0]][[0 22 0 0 0][0 0 0 9 0][0 0 0 29 0][0 0 0 6 0][0 0 0 18 0][0 5 0 9 0][4 10 0 15 0]]][[[0 36 0 27 0][0 16 0 0 0][0 21 0 0 0][0 10 0 1 0][0 0 0 28 0][0 1 0 0 0][0 30 0 15 0]][[0 7 0 11 0][23 25 19 20 0][0 25 0 16 0][0 46 0 22 0][0 0 0 0 0][2 7 0 17 0][0 0 3 35 0]][[0 29 0 0 0][0 7 0 6 3][0 15 0 11 0][0 0 0 19 0][0 0 0 27 0][0 34 0 0 0][0 7 0 0 0]]]]
// OUTPUT: 3x5x9x5xf32=[[[[-2 8 2 3 -2][-16 -11 7 4 -15][15 8 -3 4 7][-8 -13 7 -1 -1][-10 14 -6 1 -12][8 9 7 15 0][2 -1 8 11 3][-15 -9 -8 -17 -6][9 4 -1 3 3]][[-3 12 2 -5 10][2 -12 0 16 -10][12 12 7 0 20][-16 17 -3 -17 -20][-5 8 2 9 -7][4 20 10 11 11][-22 -27 8 -4 -11][17 9 -7 19 -2][-7 20 6 0 -5]][[-9 -18 12 0 12][-9 9 -8 12 -7][-21 17 12 1 -3][9 19 -15 38 -5][-11 -4 13 -6 -5][-20 -8 3 -8 22][-7 -26 -9 10 -11][9 32 11 -24 -4][1 -17 -9 9 9]][[-4 -6 20 9 -9][-29 36 -11 -18 -10][3 -4 1 7 -5][-7 35 12 9 -6][0 0 -7 41 6][-22 -28 7 7 19][-11 30 -21 -50 6][-3 -46 -14 22 -3][16 -2 10 -13 7]][[0 16 -4 -22 -2][-7 -19 13 32 -19][5 50 12 4 -23][-15 8 2 4 3][-5 7 7 -18 0][-24 -4 -8 -2 -5][-29 -28 -19 -3 0][7 -8 3 7 -27][18 -5 4 -5 16]]][[[2 0 6 9 2][5 10 -9 -1 4][-1 -16 -10 -25 7][-1 -17 -8 -19 0][10 -1 5 5 6][-3 24 -4 9 -8][-8 -9 12 6 -6][2 16 9 20 -3][-12 -1 6 7 -9]][[11 10 4 -4 7][-16 -13 -9 -1 -5][5 8 -10 14 -18][18 -15 -6 -12 -7][33 26 27 -13 22][-20 -20 -2 5 6][4 -8 -18 -33 15][-3 -11 4 -15 17][-2 -23 -12 -10 6]][[-7 -11 -5 5 -5][8 1 -6 -23 -2][27 -11 -12 0 16][26 -26 -17 -1 19][21 -17 6 -9 48][-29 -58 1 -4 -21][17 14 -3 18 15][-23 -32 -23 -25 2][7 -14 8 -13 4]][[-18 -4 -11 -7 -15][31 -1 11 27 -15][7 -15 14 -18 7][6 14 -15 -30 -8][-21 -29 16 5 1][10 34 -27 -6 -18][24 -7 34 -3 13][-11 -13 -36 -1 3][15 -6 2 -19 12]][[1 9 -15 -28 1][14 -28 -9 -10 12][13 -21 5 -1 7][18 21 -7 10 -1][23 -9 7 -37 12][-7 -13 -11 -22 3][4 -29 -6 -6 5][32 18 3 -16 -9][2 -6 -4 -18 7]]][[[1 3 6 9 1][-15 -5 -1 -2 -11][1 0 4 7 -1][-6 12 -8 0 -9][9 -2 0 0 5][13 0 3 7 12][-8 -7 -12 -20 2][-1 -3 3 0 1][-4 15 0 13 -9]][[5 22 10 2 7][-13 -2 0 15 -23][24 49 9 -2 9][-25 0 -20 -17 -17][21 -6 -1 -8 11][7 -14 3 -19 8][9 -8 7 30 -7][-11 26 2 -20 -13][5 11 -6 0 4]][[-7 -3 2 -9 16][0 -12 -9 -1 -12][7 15 8 18 15][-3 -19 -12 36 -15][-6 0 -9 -6 0][-4 -41 -6 -9 -2][44 21 10 -29 14][10 -13 -18 15 -7][5 -10 19 5 10]][[-5 -13 3 15 1][-6 12 -17 -21 -20][17 -9 21 15 5][19 33 25 2 -18][2 36 -20 9 6][15 10 -11 -27 -3][-15 -12 12 1 1][17 -17 12 42 -5][9 -19 0 -12 19]][[-14 -17 -7 -26 3][18 -23 -26 11 10][8 -19 25 4 13][1 26 -1 5 -11][-12 -8 18 28 -11][-3 -14 -26 -12 16][14 -27 -16 -29 26][4 -18 5 -36 5][-4 12 -3 2 -7]]]]
// OUTPUT: 3x8x7x5xf32=[[[[0 3 0 9 0][0 12 0 12 0][0 22 0 4 0][0 23 0 16 0][0 4 0 3 0][0 1 0 7 0][0 12 0 23 0]][[0 17 0 32 0][0 10 0 11 4][0 18 0 10 0][0 0 0 35 0][0 25 0 28 0][0 0 0 5 0][15 26 0 26 0]][[0 0 0 6 0][0 26 0 10 0][0 4 0 24 0][0 18 0 0 0][0 7 0 3 7][0 0 0 13 0][0 31 2 1 0]][[0 34 0 16 0][0 4 0 22 0][0 35 0 38 0][0 0 0 7 0][0 0 0 19 0][0 28 0 14 0][0 0 0 1 0]][[0 33 0 0 0][0 19 0 15 0][0 14 0 4 0][0 0 0 18 0][0 0 0 9 0][0 6 0 0 0][0 0 0 33 0]][[0 0 0 34 0][0 10 0 25 0][0 17 0 25 0][0 31 0 41 0][0 13 0 11 0][0 14 0 0 0][0 6 0 3 0]][[0 19 0 16 0][0 48 0 7 0][0 33 0 11 0][0 9 0 1 0][0 8 0 15 0][0 0 0 31 0][0 0 0 15 0]][[0 6 0 36 0][0 11 0 29 0][0 0 0 38 0][0 3 0 4 0][0 12 0 14 0][0 0 0 0 0][0 20 0 0 0]]][[[0 2 0 25 0][0 2 0 24 0][0 11 0 20 0][0 37 2 0 0][0 5 0 16 0][0 0 0 1 0][0 9 0 1 0]][[0 6 0 0 0][1 34 0 6 0][6 3 0 0 0][3 0 0 27 10][0 0 0 18 0][0 15 0 0 0][0 0 0 10 0]][[0 22 0 12 0][0 0 0 22 0][0 0 0 20 0][0 0 0 2 7][0 0 0 14 0][0 9 0 24 0][0 0 0 14 0]][[0 0 0 0 0][0 2 0 6 0][0 14 0 0 0][0 8 0 0 0][0 4 0 0 0][19 12 0 25 0][0 22 0 0 0]][[0 1 0 22 0][0 16 0 10 0][0 13 0 21 0][0 2 0 25 0][0 1 0 10 0][0 22 0 9 0][0 0 0 39 0]][[3 31 0 14 0][0 0 0 0 2][0 17 0 0 0][0 0 4 16 0][0 47 0 14 0][0 0 0 15 0][0 12 0 0 0]][[0 0 0 16 0][0 0 0 13 0][0 8 0 17 0][0 17 0 0 0][0 7 0 17 0][0 0 0 12 0][0 20 0 19 0]][[0 0 0 0 0][0 17 0 0 0][0 18 0 15 0][0 5 0 1 0][0 0 0 0 0][0 11 0 0 0][9 13 0 5 0]]][[[0 16 0 16 0][0 40 0 2 0][0 18 0 20 0][0 5 0 11 0][0 7 0 10 0][0 9 0 28 0][0 35 0 3 0]][[0 11 0 33 0][0 21 0 40 4][0 0 0 0 0][0 6 0 0 0][0 0 0 0 0][12 12 1 27 0][0 2 0 17 0]][[0 5 0 8 0][0 25 0 13 0][0 0 0 31 0][0 0 0 16 0][0 0 0 18 0][0 15 0 0 0][0 12 0 28 0]][[0 6 0 4 0][0 1 0 17 0][0 17 0 17 0][0 21 0 0 0][0 0 0 0 0][0 9 0 0 0][2 14 0 7 0]][[0 12 0 9 0][0 22 0 17 0][0 34 0 3 0][0 23 0 22 0][0 6 0 13 0][0 5 0 19 0][0 0 0 20 0]][[0 12 0 0 0][5 0 0 22 0][0 3 0 37 0][0 29 0 44 0][0 32 0 5 0][0 0 0 4 0][0 10 0 11 0]][[0 0 0 27 0][0 0 0 1 0][0 21 0 2 0][0 19 0 17 0][0 0 0 19 0][0 0 0 6 0][0 1 0 1 0]][[0 21 0 0 0][0 0 0 3 0][0 28 0 20 0][0 0 0 26 0][0 0 0 0 0][0 4 0 0 0][0 3 0 4 0]]]]
func.func public @main(%a0: tensor<?x?x?x3xf32>, %a1: tensor<?x?x?x3xf32>) -> (tensor<?x?x?x5xf32>, tensor<?x?x?x5xf32>, tensor<?x?x?x5xf32>, tensor<?x?x?x5xf32>, tensor<?x?x?x5xf32>, tensor<?x?x?x5xf32>) {
  %v1 = stablehlo.constant dense<[[[[-3.0, 1.0, -1.0, 1.0, -2.0], [-3.0, 1.0, -3.0, -3.0, 1.0], [1.0, 2.0, 0.0, -2.0, -2.0]], [[-2.0, -3.0, 2.0, 2.0, 0.0], [1.0, -1.0, 2.0, -1.0, 0.0], [-3.0, -2.0, 0.0, -2.0, -1.0]]], [[[-3.0, -1.0, -3.0, 0.0, -1.0], [1.0, -3.0, 1.0, -3.0, 2.0], [-1.0, -3.0, -2.0, 1.0, -1.0]], [[0.0, 3.0, 2.0, -3.0, 3.0], [0.0, -3.0, -2.0, 2.0, 2.0], [-2.0, -2.0, 1.0, 0.0, 2.0]]], [[[-3.0, 2.0, 1.0, 3.0, -3.0], [1.0, -3.0, 3.0, 2.0, 0.0], [-2.0, -2.0, 0.0, -2.0, 0.0]], [[0.0, 2.0, 2.0, 3.0, 0.0], [-1.0, 1.0, -2.0, -3.0, -1.0], [3.0, 3.0, 0.0, 2.0, 2.0]]]]> : tensor<3x2x3x5xf32>
  %v2 = stablehlo.convolution(%a0, %v1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[1, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x?x?x3xf32>, tensor<3x2x3x5xf32>) -> tensor<?x?x?x5xf32>
  %v3 = stablehlo.get_dimension_size %v2, dim = 0 : (tensor<?x?x?x5xf32>) -> tensor<i32>
  %v4 = stablehlo.reshape %v3 : (tensor<i32>) -> tensor<1xi32>
  %v5 = stablehlo.get_dimension_size %v2, dim = 1 : (tensor<?x?x?x5xf32>) -> tensor<i32>
  %v6 = stablehlo.reshape %v5 : (tensor<i32>) -> tensor<1xi32>
  %v7 = stablehlo.get_dimension_size %v2, dim = 2 : (tensor<?x?x?x5xf32>) -> tensor<i32>
  %v8 = stablehlo.reshape %v7 : (tensor<i32>) -> tensor<1xi32>
  %v9 = stablehlo.constant dense<5> : tensor<1xi32>
  %v10 = stablehlo.concatenate %v4, %v6, %v8, %v9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  %v11 = stablehlo.constant dense<[-19.0, 9.0, -19.0, 12.0, -17.0]> : tensor<5xf32>
  %v12 = stablehlo.dynamic_broadcast_in_dim %v11, %v10, dims = [3] : (tensor<5xf32>, tensor<4xi32>) -> tensor<?x?x?x5xf32>
  %v13 = stablehlo.add %v2, %v12 : tensor<?x?x?x5xf32>
  %v14 = stablehlo.constant dense<0.0> : tensor<f32>
  %v15 = stablehlo.dynamic_broadcast_in_dim %v14, %v10, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x?x?x5xf32>
  %v16 = stablehlo.maximum %v13, %v15 : tensor<?x?x?x5xf32>
  %v17 = stablehlo.convolution(%a0, %v1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[2, 0], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x?x?x3xf32>, tensor<3x2x3x5xf32>) -> tensor<?x?x?x5xf32>
  %v18 = stablehlo.convolution(%a0, %v1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 0], [0, 0]], lhs_dilate = [2, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x?x?x3xf32>, tensor<3x2x3x5xf32>) -> tensor<?x?x?x5xf32>
  %v19 = stablehlo.get_dimension_size %v18, dim = 0 : (tensor<?x?x?x5xf32>) -> tensor<i32>
  %v20 = stablehlo.reshape %v19 : (tensor<i32>) -> tensor<1xi32>
  %v21 = stablehlo.get_dimension_size %v18, dim = 1 : (tensor<?x?x?x5xf32>) -> tensor<i32>
  %v22 = stablehlo.reshape %v21 : (tensor<i32>) -> tensor<1xi32>
  %v23 = stablehlo.get_dimension_size %v18, dim = 2 : (tensor<?x?x?x5xf32>) -> tensor<i32>
  %v24 = stablehlo.reshape %v23 : (tensor<i32>) -> tensor<1xi32>
  %v25 = stablehlo.constant dense<5> : tensor<1xi32>
  %v26 = stablehlo.concatenate %v20, %v22, %v24, %v25, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  %v27 = stablehlo.constant dense<[-19.0, 9.0, -19.0, 12.0, -17.0]> : tensor<5xf32>
  %v28 = stablehlo.dynamic_broadcast_in_dim %v27, %v26, dims = [3] : (tensor<5xf32>, tensor<4xi32>) -> tensor<?x?x?x5xf32>
  %v29 = stablehlo.add %v18, %v28 : tensor<?x?x?x5xf32>
  %v30 = stablehlo.constant dense<0.0> : tensor<f32>
  %v31 = stablehlo.dynamic_broadcast_in_dim %v30, %v26, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x?x?x5xf32>
  %v32 = stablehlo.maximum %v29, %v31 : tensor<?x?x?x5xf32>
  %v33 = stablehlo.convolution(%a1, %v1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[1, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x?x?x3xf32>, tensor<3x2x3x5xf32>) -> tensor<?x?x?x5xf32>
  %v34 = stablehlo.get_dimension_size %v33, dim = 0 : (tensor<?x?x?x5xf32>) -> tensor<i32>
  %v35 = stablehlo.reshape %v34 : (tensor<i32>) -> tensor<1xi32>
  %v36 = stablehlo.get_dimension_size %v33, dim = 1 : (tensor<?x?x?x5xf32>) -> tensor<i32>
  %v37 = stablehlo.reshape %v36 : (tensor<i32>) -> tensor<1xi32>
  %v38 = stablehlo.get_dimension_size %v33, dim = 2 : (tensor<?x?x?x5xf32>) -> tensor<i32>
  %v39 = stablehlo.reshape %v38 : (tensor<i32>) -> tensor<1xi32>
  %v40 = stablehlo.constant dense<5> : tensor<1xi32>
  %v41 = stablehlo.concatenate %v35, %v37, %v39, %v40, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  %v42 = stablehlo.constant dense<[-19.0, 9.0, -19.0, 12.0, -17.0]> : tensor<5xf32>
  %v43 = stablehlo.dynamic_broadcast_in_dim %v42, %v41, dims = [3] : (tensor<5xf32>, tensor<4xi32>) -> tensor<?x?x?x5xf32>
  %v44 = stablehlo.add %v33, %v43 : tensor<?x?x?x5xf32>
  %v45 = stablehlo.constant dense<0.0> : tensor<f32>
  %v46 = stablehlo.dynamic_broadcast_in_dim %v45, %v41, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x?x?x5xf32>
  %v47 = stablehlo.maximum %v44, %v46 : tensor<?x?x?x5xf32>
  %v48 = stablehlo.convolution(%a1, %v1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[2, 0], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x?x?x3xf32>, tensor<3x2x3x5xf32>) -> tensor<?x?x?x5xf32>
  %v49 = stablehlo.convolution(%a1, %v1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 0], [0, 0]], lhs_dilate = [2, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<?x?x?x3xf32>, tensor<3x2x3x5xf32>) -> tensor<?x?x?x5xf32>
  %v50 = stablehlo.get_dimension_size %v49, dim = 0 : (tensor<?x?x?x5xf32>) -> tensor<i32>
  %v51 = stablehlo.reshape %v50 : (tensor<i32>) -> tensor<1xi32>
  %v52 = stablehlo.get_dimension_size %v49, dim = 1 : (tensor<?x?x?x5xf32>) -> tensor<i32>
  %v53 = stablehlo.reshape %v52 : (tensor<i32>) -> tensor<1xi32>
  %v54 = stablehlo.get_dimension_size %v49, dim = 2 : (tensor<?x?x?x5xf32>) -> tensor<i32>
  %v55 = stablehlo.reshape %v54 : (tensor<i32>) -> tensor<1xi32>
  %v56 = stablehlo.constant dense<5> : tensor<1xi32>
  %v57 = stablehlo.concatenate %v51, %v53, %v55, %v56, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  %v58 = stablehlo.constant dense<[-19.0, 9.0, -19.0, 12.0, -17.0]> : tensor<5xf32>
  %v59 = stablehlo.dynamic_broadcast_in_dim %v58, %v57, dims = [3] : (tensor<5xf32>, tensor<4xi32>) -> tensor<?x?x?x5xf32>
  %v60 = stablehlo.add %v49, %v59 : tensor<?x?x?x5xf32>
  %v61 = stablehlo.constant dense<0.0> : tensor<f32>
  %v62 = stablehlo.dynamic_broadcast_in_dim %v61, %v57, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x?x?x5xf32>
  %v63 = stablehlo.maximum %v60, %v62 : tensor<?x?x?x5xf32>
  return %v16, %v17, %v32, %v47, %v48, %v63 : tensor<?x?x?x5xf32>, tensor<?x?x?x5xf32>, tensor<?x?x?x5xf32>, tensor<?x?x?x5xf32>, tensor<?x?x?x5xf32>, tensor<?x?x?x5xf32>
}
