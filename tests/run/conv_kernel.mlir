// Convolution as an implicit GEMM (codegen/dot.c, NHWC x HWIO) against
// the elemental generator (codegen/conv.c) on the same problem laid out
// NCHW x OIHW, on integer-valued inputs so that every sum is exact:
// strides, padding (negative too), dilation, 1x1, CI > KC, edge panels.
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
func.func @main() -> (tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>) {
  %x0_i0 = stablehlo.iota dim = 0 : tensor<1x9x11x5xf32>
  %x0_k0 = stablehlo.constant dense<3.0> : tensor<1x9x11x5xf32>
  %x0_p0 = stablehlo.multiply %x0_i0, %x0_k0 : tensor<1x9x11x5xf32>
  %x0_i1 = stablehlo.iota dim = 1 : tensor<1x9x11x5xf32>
  %x0_k1 = stablehlo.constant dense<5.0> : tensor<1x9x11x5xf32>
  %x0_p1 = stablehlo.multiply %x0_i1, %x0_k1 : tensor<1x9x11x5xf32>
  %x0_i2 = stablehlo.iota dim = 2 : tensor<1x9x11x5xf32>
  %x0_k2 = stablehlo.constant dense<7.0> : tensor<1x9x11x5xf32>
  %x0_p2 = stablehlo.multiply %x0_i2, %x0_k2 : tensor<1x9x11x5xf32>
  %x0_i3 = stablehlo.iota dim = 3 : tensor<1x9x11x5xf32>
  %x0_k3 = stablehlo.constant dense<2.0> : tensor<1x9x11x5xf32>
  %x0_p3 = stablehlo.multiply %x0_i3, %x0_k3 : tensor<1x9x11x5xf32>
  %x0_s0 = stablehlo.add %x0_p0, %x0_p1 : tensor<1x9x11x5xf32>
  %x0_s1 = stablehlo.add %x0_s0, %x0_p2 : tensor<1x9x11x5xf32>
  %x0_s2 = stablehlo.add %x0_s1, %x0_p3 : tensor<1x9x11x5xf32>
  %x0_m = stablehlo.constant dense<11.0> : tensor<1x9x11x5xf32>
  %x0_o = stablehlo.constant dense<5.0> : tensor<1x9x11x5xf32>
  %x0_r = stablehlo.remainder %x0_s2, %x0_m : tensor<1x9x11x5xf32>
  %x0 = stablehlo.subtract %x0_r, %x0_o : tensor<1x9x11x5xf32>
  %w0_i0 = stablehlo.iota dim = 0 : tensor<3x3x5x70xf32>
  %w0_k0 = stablehlo.constant dense<2.0> : tensor<3x3x5x70xf32>
  %w0_p0 = stablehlo.multiply %w0_i0, %w0_k0 : tensor<3x3x5x70xf32>
  %w0_i1 = stablehlo.iota dim = 1 : tensor<3x3x5x70xf32>
  %w0_k1 = stablehlo.constant dense<3.0> : tensor<3x3x5x70xf32>
  %w0_p1 = stablehlo.multiply %w0_i1, %w0_k1 : tensor<3x3x5x70xf32>
  %w0_i2 = stablehlo.iota dim = 2 : tensor<3x3x5x70xf32>
  %w0_k2 = stablehlo.constant dense<5.0> : tensor<3x3x5x70xf32>
  %w0_p2 = stablehlo.multiply %w0_i2, %w0_k2 : tensor<3x3x5x70xf32>
  %w0_i3 = stablehlo.iota dim = 3 : tensor<3x3x5x70xf32>
  %w0_k3 = stablehlo.constant dense<7.0> : tensor<3x3x5x70xf32>
  %w0_p3 = stablehlo.multiply %w0_i3, %w0_k3 : tensor<3x3x5x70xf32>
  %w0_s0 = stablehlo.add %w0_p0, %w0_p1 : tensor<3x3x5x70xf32>
  %w0_s1 = stablehlo.add %w0_s0, %w0_p2 : tensor<3x3x5x70xf32>
  %w0_s2 = stablehlo.add %w0_s1, %w0_p3 : tensor<3x3x5x70xf32>
  %w0_m = stablehlo.constant dense<13.0> : tensor<3x3x5x70xf32>
  %w0_o = stablehlo.constant dense<6.0> : tensor<3x3x5x70xf32>
  %w0_r = stablehlo.remainder %w0_s2, %w0_m : tensor<3x3x5x70xf32>
  %w0 = stablehlo.subtract %w0_r, %w0_o : tensor<3x3x5x70xf32>
  %c0 = stablehlo.convolution(%x0, %w0) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x9x11x5xf32>, tensor<3x3x5x70xf32>) -> tensor<1x9x11x70xf32>
  %xt0 = stablehlo.transpose %x0, dims = [0, 3, 1, 2] : (tensor<1x9x11x5xf32>) -> tensor<1x5x9x11xf32>
  %wt0 = stablehlo.transpose %w0, dims = [3, 2, 0, 1] : (tensor<3x3x5x70xf32>) -> tensor<70x5x3x3xf32>
  %r0 = stablehlo.convolution(%xt0, %wt0) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x9x11xf32>, tensor<70x5x3x3xf32>) -> tensor<1x70x9x11xf32>
  %rt0 = stablehlo.transpose %r0, dims = [0, 2, 3, 1] : (tensor<1x70x9x11xf32>) -> tensor<1x9x11x70xf32>
  %eq0 = stablehlo.compare EQ, %c0, %rt0 : (tensor<1x9x11x70xf32>, tensor<1x9x11x70xf32>) -> tensor<1x9x11x70xi1>
  %t0 = stablehlo.constant dense<true> : tensor<i1>
  %ok0 = stablehlo.reduce(%eq0 init: %t0) applies stablehlo.and across dimensions = [0, 1, 2, 3] : (tensor<1x9x11x70xi1>, tensor<i1>) -> tensor<i1>
  %x1_i0 = stablehlo.iota dim = 0 : tensor<2x13x12x3xf32>
  %x1_k0 = stablehlo.constant dense<3.0> : tensor<2x13x12x3xf32>
  %x1_p0 = stablehlo.multiply %x1_i0, %x1_k0 : tensor<2x13x12x3xf32>
  %x1_i1 = stablehlo.iota dim = 1 : tensor<2x13x12x3xf32>
  %x1_k1 = stablehlo.constant dense<5.0> : tensor<2x13x12x3xf32>
  %x1_p1 = stablehlo.multiply %x1_i1, %x1_k1 : tensor<2x13x12x3xf32>
  %x1_i2 = stablehlo.iota dim = 2 : tensor<2x13x12x3xf32>
  %x1_k2 = stablehlo.constant dense<7.0> : tensor<2x13x12x3xf32>
  %x1_p2 = stablehlo.multiply %x1_i2, %x1_k2 : tensor<2x13x12x3xf32>
  %x1_i3 = stablehlo.iota dim = 3 : tensor<2x13x12x3xf32>
  %x1_k3 = stablehlo.constant dense<2.0> : tensor<2x13x12x3xf32>
  %x1_p3 = stablehlo.multiply %x1_i3, %x1_k3 : tensor<2x13x12x3xf32>
  %x1_s0 = stablehlo.add %x1_p0, %x1_p1 : tensor<2x13x12x3xf32>
  %x1_s1 = stablehlo.add %x1_s0, %x1_p2 : tensor<2x13x12x3xf32>
  %x1_s2 = stablehlo.add %x1_s1, %x1_p3 : tensor<2x13x12x3xf32>
  %x1_m = stablehlo.constant dense<11.0> : tensor<2x13x12x3xf32>
  %x1_o = stablehlo.constant dense<5.0> : tensor<2x13x12x3xf32>
  %x1_r = stablehlo.remainder %x1_s2, %x1_m : tensor<2x13x12x3xf32>
  %x1 = stablehlo.subtract %x1_r, %x1_o : tensor<2x13x12x3xf32>
  %w1_i0 = stablehlo.iota dim = 0 : tensor<7x7x3x16xf32>
  %w1_k0 = stablehlo.constant dense<2.0> : tensor<7x7x3x16xf32>
  %w1_p0 = stablehlo.multiply %w1_i0, %w1_k0 : tensor<7x7x3x16xf32>
  %w1_i1 = stablehlo.iota dim = 1 : tensor<7x7x3x16xf32>
  %w1_k1 = stablehlo.constant dense<3.0> : tensor<7x7x3x16xf32>
  %w1_p1 = stablehlo.multiply %w1_i1, %w1_k1 : tensor<7x7x3x16xf32>
  %w1_i2 = stablehlo.iota dim = 2 : tensor<7x7x3x16xf32>
  %w1_k2 = stablehlo.constant dense<5.0> : tensor<7x7x3x16xf32>
  %w1_p2 = stablehlo.multiply %w1_i2, %w1_k2 : tensor<7x7x3x16xf32>
  %w1_i3 = stablehlo.iota dim = 3 : tensor<7x7x3x16xf32>
  %w1_k3 = stablehlo.constant dense<7.0> : tensor<7x7x3x16xf32>
  %w1_p3 = stablehlo.multiply %w1_i3, %w1_k3 : tensor<7x7x3x16xf32>
  %w1_s0 = stablehlo.add %w1_p0, %w1_p1 : tensor<7x7x3x16xf32>
  %w1_s1 = stablehlo.add %w1_s0, %w1_p2 : tensor<7x7x3x16xf32>
  %w1_s2 = stablehlo.add %w1_s1, %w1_p3 : tensor<7x7x3x16xf32>
  %w1_m = stablehlo.constant dense<13.0> : tensor<7x7x3x16xf32>
  %w1_o = stablehlo.constant dense<6.0> : tensor<7x7x3x16xf32>
  %w1_r = stablehlo.remainder %w1_s2, %w1_m : tensor<7x7x3x16xf32>
  %w1 = stablehlo.subtract %w1_r, %w1_o : tensor<7x7x3x16xf32>
  %c1 = stablehlo.convolution(%x1, %w1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[3, 3], [3, 3]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x13x12x3xf32>, tensor<7x7x3x16xf32>) -> tensor<2x7x6x16xf32>
  %xt1 = stablehlo.transpose %x1, dims = [0, 3, 1, 2] : (tensor<2x13x12x3xf32>) -> tensor<2x3x13x12xf32>
  %wt1 = stablehlo.transpose %w1, dims = [3, 2, 0, 1] : (tensor<7x7x3x16xf32>) -> tensor<16x3x7x7xf32>
  %r1 = stablehlo.convolution(%xt1, %wt1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], pad = [[3, 3], [3, 3]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x13x12xf32>, tensor<16x3x7x7xf32>) -> tensor<2x16x7x6xf32>
  %rt1 = stablehlo.transpose %r1, dims = [0, 2, 3, 1] : (tensor<2x16x7x6xf32>) -> tensor<2x7x6x16xf32>
  %eq1 = stablehlo.compare EQ, %c1, %rt1 : (tensor<2x7x6x16xf32>, tensor<2x7x6x16xf32>) -> tensor<2x7x6x16xi1>
  %t1 = stablehlo.constant dense<true> : tensor<i1>
  %ok1 = stablehlo.reduce(%eq1 init: %t1) applies stablehlo.and across dimensions = [0, 1, 2, 3] : (tensor<2x7x6x16xi1>, tensor<i1>) -> tensor<i1>
  %x2_i0 = stablehlo.iota dim = 0 : tensor<1x8x8x200xf32>
  %x2_k0 = stablehlo.constant dense<3.0> : tensor<1x8x8x200xf32>
  %x2_p0 = stablehlo.multiply %x2_i0, %x2_k0 : tensor<1x8x8x200xf32>
  %x2_i1 = stablehlo.iota dim = 1 : tensor<1x8x8x200xf32>
  %x2_k1 = stablehlo.constant dense<5.0> : tensor<1x8x8x200xf32>
  %x2_p1 = stablehlo.multiply %x2_i1, %x2_k1 : tensor<1x8x8x200xf32>
  %x2_i2 = stablehlo.iota dim = 2 : tensor<1x8x8x200xf32>
  %x2_k2 = stablehlo.constant dense<7.0> : tensor<1x8x8x200xf32>
  %x2_p2 = stablehlo.multiply %x2_i2, %x2_k2 : tensor<1x8x8x200xf32>
  %x2_i3 = stablehlo.iota dim = 3 : tensor<1x8x8x200xf32>
  %x2_k3 = stablehlo.constant dense<2.0> : tensor<1x8x8x200xf32>
  %x2_p3 = stablehlo.multiply %x2_i3, %x2_k3 : tensor<1x8x8x200xf32>
  %x2_s0 = stablehlo.add %x2_p0, %x2_p1 : tensor<1x8x8x200xf32>
  %x2_s1 = stablehlo.add %x2_s0, %x2_p2 : tensor<1x8x8x200xf32>
  %x2_s2 = stablehlo.add %x2_s1, %x2_p3 : tensor<1x8x8x200xf32>
  %x2_m = stablehlo.constant dense<11.0> : tensor<1x8x8x200xf32>
  %x2_o = stablehlo.constant dense<5.0> : tensor<1x8x8x200xf32>
  %x2_r = stablehlo.remainder %x2_s2, %x2_m : tensor<1x8x8x200xf32>
  %x2 = stablehlo.subtract %x2_r, %x2_o : tensor<1x8x8x200xf32>
  %w2_i0 = stablehlo.iota dim = 0 : tensor<1x1x200x33xf32>
  %w2_k0 = stablehlo.constant dense<2.0> : tensor<1x1x200x33xf32>
  %w2_p0 = stablehlo.multiply %w2_i0, %w2_k0 : tensor<1x1x200x33xf32>
  %w2_i1 = stablehlo.iota dim = 1 : tensor<1x1x200x33xf32>
  %w2_k1 = stablehlo.constant dense<3.0> : tensor<1x1x200x33xf32>
  %w2_p1 = stablehlo.multiply %w2_i1, %w2_k1 : tensor<1x1x200x33xf32>
  %w2_i2 = stablehlo.iota dim = 2 : tensor<1x1x200x33xf32>
  %w2_k2 = stablehlo.constant dense<5.0> : tensor<1x1x200x33xf32>
  %w2_p2 = stablehlo.multiply %w2_i2, %w2_k2 : tensor<1x1x200x33xf32>
  %w2_i3 = stablehlo.iota dim = 3 : tensor<1x1x200x33xf32>
  %w2_k3 = stablehlo.constant dense<7.0> : tensor<1x1x200x33xf32>
  %w2_p3 = stablehlo.multiply %w2_i3, %w2_k3 : tensor<1x1x200x33xf32>
  %w2_s0 = stablehlo.add %w2_p0, %w2_p1 : tensor<1x1x200x33xf32>
  %w2_s1 = stablehlo.add %w2_s0, %w2_p2 : tensor<1x1x200x33xf32>
  %w2_s2 = stablehlo.add %w2_s1, %w2_p3 : tensor<1x1x200x33xf32>
  %w2_m = stablehlo.constant dense<13.0> : tensor<1x1x200x33xf32>
  %w2_o = stablehlo.constant dense<6.0> : tensor<1x1x200x33xf32>
  %w2_r = stablehlo.remainder %w2_s2, %w2_m : tensor<1x1x200x33xf32>
  %w2 = stablehlo.subtract %w2_r, %w2_o : tensor<1x1x200x33xf32>
  %c2 = stablehlo.convolution(%x2, %w2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x200xf32>, tensor<1x1x200x33xf32>) -> tensor<1x8x8x33xf32>
  %xt2 = stablehlo.transpose %x2, dims = [0, 3, 1, 2] : (tensor<1x8x8x200xf32>) -> tensor<1x200x8x8xf32>
  %wt2 = stablehlo.transpose %w2, dims = [3, 2, 0, 1] : (tensor<1x1x200x33xf32>) -> tensor<33x200x1x1xf32>
  %r2 = stablehlo.convolution(%xt2, %wt2) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x200x8x8xf32>, tensor<33x200x1x1xf32>) -> tensor<1x33x8x8xf32>
  %rt2 = stablehlo.transpose %r2, dims = [0, 2, 3, 1] : (tensor<1x33x8x8xf32>) -> tensor<1x8x8x33xf32>
  %eq2 = stablehlo.compare EQ, %c2, %rt2 : (tensor<1x8x8x33xf32>, tensor<1x8x8x33xf32>) -> tensor<1x8x8x33xi1>
  %t2 = stablehlo.constant dense<true> : tensor<i1>
  %ok2 = stablehlo.reduce(%eq2 init: %t2) applies stablehlo.and across dimensions = [0, 1, 2, 3] : (tensor<1x8x8x33xi1>, tensor<i1>) -> tensor<i1>
  %x3_i0 = stablehlo.iota dim = 0 : tensor<1x9x9x6xf32>
  %x3_k0 = stablehlo.constant dense<3.0> : tensor<1x9x9x6xf32>
  %x3_p0 = stablehlo.multiply %x3_i0, %x3_k0 : tensor<1x9x9x6xf32>
  %x3_i1 = stablehlo.iota dim = 1 : tensor<1x9x9x6xf32>
  %x3_k1 = stablehlo.constant dense<5.0> : tensor<1x9x9x6xf32>
  %x3_p1 = stablehlo.multiply %x3_i1, %x3_k1 : tensor<1x9x9x6xf32>
  %x3_i2 = stablehlo.iota dim = 2 : tensor<1x9x9x6xf32>
  %x3_k2 = stablehlo.constant dense<7.0> : tensor<1x9x9x6xf32>
  %x3_p2 = stablehlo.multiply %x3_i2, %x3_k2 : tensor<1x9x9x6xf32>
  %x3_i3 = stablehlo.iota dim = 3 : tensor<1x9x9x6xf32>
  %x3_k3 = stablehlo.constant dense<2.0> : tensor<1x9x9x6xf32>
  %x3_p3 = stablehlo.multiply %x3_i3, %x3_k3 : tensor<1x9x9x6xf32>
  %x3_s0 = stablehlo.add %x3_p0, %x3_p1 : tensor<1x9x9x6xf32>
  %x3_s1 = stablehlo.add %x3_s0, %x3_p2 : tensor<1x9x9x6xf32>
  %x3_s2 = stablehlo.add %x3_s1, %x3_p3 : tensor<1x9x9x6xf32>
  %x3_m = stablehlo.constant dense<11.0> : tensor<1x9x9x6xf32>
  %x3_o = stablehlo.constant dense<5.0> : tensor<1x9x9x6xf32>
  %x3_r = stablehlo.remainder %x3_s2, %x3_m : tensor<1x9x9x6xf32>
  %x3 = stablehlo.subtract %x3_r, %x3_o : tensor<1x9x9x6xf32>
  %w3_i0 = stablehlo.iota dim = 0 : tensor<1x1x6x20xf32>
  %w3_k0 = stablehlo.constant dense<2.0> : tensor<1x1x6x20xf32>
  %w3_p0 = stablehlo.multiply %w3_i0, %w3_k0 : tensor<1x1x6x20xf32>
  %w3_i1 = stablehlo.iota dim = 1 : tensor<1x1x6x20xf32>
  %w3_k1 = stablehlo.constant dense<3.0> : tensor<1x1x6x20xf32>
  %w3_p1 = stablehlo.multiply %w3_i1, %w3_k1 : tensor<1x1x6x20xf32>
  %w3_i2 = stablehlo.iota dim = 2 : tensor<1x1x6x20xf32>
  %w3_k2 = stablehlo.constant dense<5.0> : tensor<1x1x6x20xf32>
  %w3_p2 = stablehlo.multiply %w3_i2, %w3_k2 : tensor<1x1x6x20xf32>
  %w3_i3 = stablehlo.iota dim = 3 : tensor<1x1x6x20xf32>
  %w3_k3 = stablehlo.constant dense<7.0> : tensor<1x1x6x20xf32>
  %w3_p3 = stablehlo.multiply %w3_i3, %w3_k3 : tensor<1x1x6x20xf32>
  %w3_s0 = stablehlo.add %w3_p0, %w3_p1 : tensor<1x1x6x20xf32>
  %w3_s1 = stablehlo.add %w3_s0, %w3_p2 : tensor<1x1x6x20xf32>
  %w3_s2 = stablehlo.add %w3_s1, %w3_p3 : tensor<1x1x6x20xf32>
  %w3_m = stablehlo.constant dense<13.0> : tensor<1x1x6x20xf32>
  %w3_o = stablehlo.constant dense<6.0> : tensor<1x1x6x20xf32>
  %w3_r = stablehlo.remainder %w3_s2, %w3_m : tensor<1x1x6x20xf32>
  %w3 = stablehlo.subtract %w3_r, %w3_o : tensor<1x1x6x20xf32>
  %c3 = stablehlo.convolution(%x3, %w3) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 0], [0, 0]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x9x9x6xf32>, tensor<1x1x6x20xf32>) -> tensor<1x5x5x20xf32>
  %xt3 = stablehlo.transpose %x3, dims = [0, 3, 1, 2] : (tensor<1x9x9x6xf32>) -> tensor<1x6x9x9xf32>
  %wt3 = stablehlo.transpose %w3, dims = [3, 2, 0, 1] : (tensor<1x1x6x20xf32>) -> tensor<20x6x1x1xf32>
  %r3 = stablehlo.convolution(%xt3, %wt3) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], pad = [[0, 0], [0, 0]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x9x9xf32>, tensor<20x6x1x1xf32>) -> tensor<1x20x5x5xf32>
  %rt3 = stablehlo.transpose %r3, dims = [0, 2, 3, 1] : (tensor<1x20x5x5xf32>) -> tensor<1x5x5x20xf32>
  %eq3 = stablehlo.compare EQ, %c3, %rt3 : (tensor<1x5x5x20xf32>, tensor<1x5x5x20xf32>) -> tensor<1x5x5x20xi1>
  %t3 = stablehlo.constant dense<true> : tensor<i1>
  %ok3 = stablehlo.reduce(%eq3 init: %t3) applies stablehlo.and across dimensions = [0, 1, 2, 3] : (tensor<1x5x5x20xi1>, tensor<i1>) -> tensor<i1>
  %x4_i0 = stablehlo.iota dim = 0 : tensor<1x10x9x4xf32>
  %x4_k0 = stablehlo.constant dense<3.0> : tensor<1x10x9x4xf32>
  %x4_p0 = stablehlo.multiply %x4_i0, %x4_k0 : tensor<1x10x9x4xf32>
  %x4_i1 = stablehlo.iota dim = 1 : tensor<1x10x9x4xf32>
  %x4_k1 = stablehlo.constant dense<5.0> : tensor<1x10x9x4xf32>
  %x4_p1 = stablehlo.multiply %x4_i1, %x4_k1 : tensor<1x10x9x4xf32>
  %x4_i2 = stablehlo.iota dim = 2 : tensor<1x10x9x4xf32>
  %x4_k2 = stablehlo.constant dense<7.0> : tensor<1x10x9x4xf32>
  %x4_p2 = stablehlo.multiply %x4_i2, %x4_k2 : tensor<1x10x9x4xf32>
  %x4_i3 = stablehlo.iota dim = 3 : tensor<1x10x9x4xf32>
  %x4_k3 = stablehlo.constant dense<2.0> : tensor<1x10x9x4xf32>
  %x4_p3 = stablehlo.multiply %x4_i3, %x4_k3 : tensor<1x10x9x4xf32>
  %x4_s0 = stablehlo.add %x4_p0, %x4_p1 : tensor<1x10x9x4xf32>
  %x4_s1 = stablehlo.add %x4_s0, %x4_p2 : tensor<1x10x9x4xf32>
  %x4_s2 = stablehlo.add %x4_s1, %x4_p3 : tensor<1x10x9x4xf32>
  %x4_m = stablehlo.constant dense<11.0> : tensor<1x10x9x4xf32>
  %x4_o = stablehlo.constant dense<5.0> : tensor<1x10x9x4xf32>
  %x4_r = stablehlo.remainder %x4_s2, %x4_m : tensor<1x10x9x4xf32>
  %x4 = stablehlo.subtract %x4_r, %x4_o : tensor<1x10x9x4xf32>
  %w4_i0 = stablehlo.iota dim = 0 : tensor<3x2x4x9xf32>
  %w4_k0 = stablehlo.constant dense<2.0> : tensor<3x2x4x9xf32>
  %w4_p0 = stablehlo.multiply %w4_i0, %w4_k0 : tensor<3x2x4x9xf32>
  %w4_i1 = stablehlo.iota dim = 1 : tensor<3x2x4x9xf32>
  %w4_k1 = stablehlo.constant dense<3.0> : tensor<3x2x4x9xf32>
  %w4_p1 = stablehlo.multiply %w4_i1, %w4_k1 : tensor<3x2x4x9xf32>
  %w4_i2 = stablehlo.iota dim = 2 : tensor<3x2x4x9xf32>
  %w4_k2 = stablehlo.constant dense<5.0> : tensor<3x2x4x9xf32>
  %w4_p2 = stablehlo.multiply %w4_i2, %w4_k2 : tensor<3x2x4x9xf32>
  %w4_i3 = stablehlo.iota dim = 3 : tensor<3x2x4x9xf32>
  %w4_k3 = stablehlo.constant dense<7.0> : tensor<3x2x4x9xf32>
  %w4_p3 = stablehlo.multiply %w4_i3, %w4_k3 : tensor<3x2x4x9xf32>
  %w4_s0 = stablehlo.add %w4_p0, %w4_p1 : tensor<3x2x4x9xf32>
  %w4_s1 = stablehlo.add %w4_s0, %w4_p2 : tensor<3x2x4x9xf32>
  %w4_s2 = stablehlo.add %w4_s1, %w4_p3 : tensor<3x2x4x9xf32>
  %w4_m = stablehlo.constant dense<13.0> : tensor<3x2x4x9xf32>
  %w4_o = stablehlo.constant dense<6.0> : tensor<3x2x4x9xf32>
  %w4_r = stablehlo.remainder %w4_s2, %w4_m : tensor<3x2x4x9xf32>
  %w4 = stablehlo.subtract %w4_r, %w4_o : tensor<3x2x4x9xf32>
  %c4 = stablehlo.convolution(%x4, %w4) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 2], pad = [[2, 0], [-1, 3]], rhs_dilate = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x10x9x4xf32>, tensor<3x2x4x9xf32>) -> tensor<1x8x5x9xf32>
  %xt4 = stablehlo.transpose %x4, dims = [0, 3, 1, 2] : (tensor<1x10x9x4xf32>) -> tensor<1x4x10x9xf32>
  %wt4 = stablehlo.transpose %w4, dims = [3, 2, 0, 1] : (tensor<3x2x4x9xf32>) -> tensor<9x4x3x2xf32>
  %r4 = stablehlo.convolution(%xt4, %wt4) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 2], pad = [[2, 0], [-1, 3]], rhs_dilate = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x10x9xf32>, tensor<9x4x3x2xf32>) -> tensor<1x9x8x5xf32>
  %rt4 = stablehlo.transpose %r4, dims = [0, 2, 3, 1] : (tensor<1x9x8x5xf32>) -> tensor<1x8x5x9xf32>
  %eq4 = stablehlo.compare EQ, %c4, %rt4 : (tensor<1x8x5x9xf32>, tensor<1x8x5x9xf32>) -> tensor<1x8x5x9xi1>
  %t4 = stablehlo.constant dense<true> : tensor<i1>
  %ok4 = stablehlo.reduce(%eq4 init: %t4) applies stablehlo.and across dimensions = [0, 1, 2, 3] : (tensor<1x8x5x9xi1>, tensor<i1>) -> tensor<i1>
  %x5_i0 = stablehlo.iota dim = 0 : tensor<3x5x4x2xf32>
  %x5_k0 = stablehlo.constant dense<3.0> : tensor<3x5x4x2xf32>
  %x5_p0 = stablehlo.multiply %x5_i0, %x5_k0 : tensor<3x5x4x2xf32>
  %x5_i1 = stablehlo.iota dim = 1 : tensor<3x5x4x2xf32>
  %x5_k1 = stablehlo.constant dense<5.0> : tensor<3x5x4x2xf32>
  %x5_p1 = stablehlo.multiply %x5_i1, %x5_k1 : tensor<3x5x4x2xf32>
  %x5_i2 = stablehlo.iota dim = 2 : tensor<3x5x4x2xf32>
  %x5_k2 = stablehlo.constant dense<7.0> : tensor<3x5x4x2xf32>
  %x5_p2 = stablehlo.multiply %x5_i2, %x5_k2 : tensor<3x5x4x2xf32>
  %x5_i3 = stablehlo.iota dim = 3 : tensor<3x5x4x2xf32>
  %x5_k3 = stablehlo.constant dense<2.0> : tensor<3x5x4x2xf32>
  %x5_p3 = stablehlo.multiply %x5_i3, %x5_k3 : tensor<3x5x4x2xf32>
  %x5_s0 = stablehlo.add %x5_p0, %x5_p1 : tensor<3x5x4x2xf32>
  %x5_s1 = stablehlo.add %x5_s0, %x5_p2 : tensor<3x5x4x2xf32>
  %x5_s2 = stablehlo.add %x5_s1, %x5_p3 : tensor<3x5x4x2xf32>
  %x5_m = stablehlo.constant dense<11.0> : tensor<3x5x4x2xf32>
  %x5_o = stablehlo.constant dense<5.0> : tensor<3x5x4x2xf32>
  %x5_r = stablehlo.remainder %x5_s2, %x5_m : tensor<3x5x4x2xf32>
  %x5 = stablehlo.subtract %x5_r, %x5_o : tensor<3x5x4x2xf32>
  %w5_i0 = stablehlo.iota dim = 0 : tensor<5x4x2x5xf32>
  %w5_k0 = stablehlo.constant dense<2.0> : tensor<5x4x2x5xf32>
  %w5_p0 = stablehlo.multiply %w5_i0, %w5_k0 : tensor<5x4x2x5xf32>
  %w5_i1 = stablehlo.iota dim = 1 : tensor<5x4x2x5xf32>
  %w5_k1 = stablehlo.constant dense<3.0> : tensor<5x4x2x5xf32>
  %w5_p1 = stablehlo.multiply %w5_i1, %w5_k1 : tensor<5x4x2x5xf32>
  %w5_i2 = stablehlo.iota dim = 2 : tensor<5x4x2x5xf32>
  %w5_k2 = stablehlo.constant dense<5.0> : tensor<5x4x2x5xf32>
  %w5_p2 = stablehlo.multiply %w5_i2, %w5_k2 : tensor<5x4x2x5xf32>
  %w5_i3 = stablehlo.iota dim = 3 : tensor<5x4x2x5xf32>
  %w5_k3 = stablehlo.constant dense<7.0> : tensor<5x4x2x5xf32>
  %w5_p3 = stablehlo.multiply %w5_i3, %w5_k3 : tensor<5x4x2x5xf32>
  %w5_s0 = stablehlo.add %w5_p0, %w5_p1 : tensor<5x4x2x5xf32>
  %w5_s1 = stablehlo.add %w5_s0, %w5_p2 : tensor<5x4x2x5xf32>
  %w5_s2 = stablehlo.add %w5_s1, %w5_p3 : tensor<5x4x2x5xf32>
  %w5_m = stablehlo.constant dense<13.0> : tensor<5x4x2x5xf32>
  %w5_o = stablehlo.constant dense<6.0> : tensor<5x4x2x5xf32>
  %w5_r = stablehlo.remainder %w5_s2, %w5_m : tensor<5x4x2x5xf32>
  %w5 = stablehlo.subtract %w5_r, %w5_o : tensor<5x4x2x5xf32>
  %c5 = stablehlo.convolution(%x5, %w5) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x5x4x2xf32>, tensor<5x4x2x5xf32>) -> tensor<3x1x1x5xf32>
  %xt5 = stablehlo.transpose %x5, dims = [0, 3, 1, 2] : (tensor<3x5x4x2xf32>) -> tensor<3x2x5x4xf32>
  %wt5 = stablehlo.transpose %w5, dims = [3, 2, 0, 1] : (tensor<5x4x2x5xf32>) -> tensor<5x2x5x4xf32>
  %r5 = stablehlo.convolution(%xt5, %wt5) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x2x5x4xf32>, tensor<5x2x5x4xf32>) -> tensor<3x5x1x1xf32>
  %rt5 = stablehlo.transpose %r5, dims = [0, 2, 3, 1] : (tensor<3x5x1x1xf32>) -> tensor<3x1x1x5xf32>
  %eq5 = stablehlo.compare EQ, %c5, %rt5 : (tensor<3x1x1x5xf32>, tensor<3x1x1x5xf32>) -> tensor<3x1x1x5xi1>
  %t5 = stablehlo.constant dense<true> : tensor<i1>
  %ok5 = stablehlo.reduce(%eq5 init: %t5) applies stablehlo.and across dimensions = [0, 1, 2, 3] : (tensor<3x1x1x5xi1>, tensor<i1>) -> tensor<i1>
  return %ok0, %ok1, %ok2, %ok3, %ok4, %ok5 : tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>
}
