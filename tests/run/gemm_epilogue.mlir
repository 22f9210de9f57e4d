// GEMM epilogues (fuse.c, codegen/dot.c): batch norm and ReLU fused into
// the blocked convolution and dot_general kernels, against the same
// chain applied after an unfused reference (operands laid out so that
// the reference feeds a transpose), on integer-valued inputs so that
// every value is exact (each result goes through a product with the identity,
// so that the chain is a kernel root): edge tiles, several K slices, batch dimensions,
// two rhs free dimensions, a vector-matrix product, K = 0.
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
func.func @main() -> (tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>) {
  %x0_i0 = stablehlo.iota dim = 0 : tensor<2x9x11x5xf32>
  %x0_k0 = stablehlo.constant dense<3.0> : tensor<2x9x11x5xf32>
  %x0_p0 = stablehlo.multiply %x0_i0, %x0_k0 : tensor<2x9x11x5xf32>
  %x0_i1 = stablehlo.iota dim = 1 : tensor<2x9x11x5xf32>
  %x0_k1 = stablehlo.constant dense<5.0> : tensor<2x9x11x5xf32>
  %x0_p1 = stablehlo.multiply %x0_i1, %x0_k1 : tensor<2x9x11x5xf32>
  %x0_i2 = stablehlo.iota dim = 2 : tensor<2x9x11x5xf32>
  %x0_k2 = stablehlo.constant dense<7.0> : tensor<2x9x11x5xf32>
  %x0_p2 = stablehlo.multiply %x0_i2, %x0_k2 : tensor<2x9x11x5xf32>
  %x0_i3 = stablehlo.iota dim = 3 : tensor<2x9x11x5xf32>
  %x0_k3 = stablehlo.constant dense<2.0> : tensor<2x9x11x5xf32>
  %x0_p3 = stablehlo.multiply %x0_i3, %x0_k3 : tensor<2x9x11x5xf32>
  %x0_s1 = stablehlo.add %x0_p0, %x0_p1 : tensor<2x9x11x5xf32>
  %x0_s2 = stablehlo.add %x0_s1, %x0_p2 : tensor<2x9x11x5xf32>
  %x0_s3 = stablehlo.add %x0_s2, %x0_p3 : tensor<2x9x11x5xf32>
  %x0_m = stablehlo.constant dense<11.0> : tensor<2x9x11x5xf32>
  %x0_o = stablehlo.constant dense<5.0> : tensor<2x9x11x5xf32>
  %x0_r = stablehlo.remainder %x0_s3, %x0_m : tensor<2x9x11x5xf32>
  %x0 = stablehlo.subtract %x0_r, %x0_o : tensor<2x9x11x5xf32>
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
  %w0_s1 = stablehlo.add %w0_p0, %w0_p1 : tensor<3x3x5x70xf32>
  %w0_s2 = stablehlo.add %w0_s1, %w0_p2 : tensor<3x3x5x70xf32>
  %w0_s3 = stablehlo.add %w0_s2, %w0_p3 : tensor<3x3x5x70xf32>
  %w0_m = stablehlo.constant dense<13.0> : tensor<3x3x5x70xf32>
  %w0_o = stablehlo.constant dense<6.0> : tensor<3x3x5x70xf32>
  %w0_r = stablehlo.remainder %w0_s3, %w0_m : tensor<3x3x5x70xf32>
  %w0 = stablehlo.subtract %w0_r, %w0_o : tensor<3x3x5x70xf32>
  %c0 = stablehlo.convolution(%x0, %w0) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x9x11x5xf32>, tensor<3x3x5x70xf32>) -> tensor<2x9x11x70xf32>
  %xt0 = stablehlo.transpose %x0, dims = [0, 3, 1, 2] : (tensor<2x9x11x5xf32>) -> tensor<2x5x9x11xf32>
  %wt0 = stablehlo.transpose %w0, dims = [3, 2, 0, 1] : (tensor<3x3x5x70xf32>) -> tensor<70x5x3x3xf32>
  %r0 = stablehlo.convolution(%xt0, %wt0) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x9x11xf32>, tensor<70x5x3x3xf32>) -> tensor<2x70x9x11xf32>
  %rt0 = stablehlo.transpose %r0, dims = [0, 2, 3, 1] : (tensor<2x70x9x11xf32>) -> tensor<2x9x11x70xf32>
  %a0_mean_i0 = stablehlo.iota dim = 0 : tensor<70xf32>
  %a0_mean_k0 = stablehlo.constant dense<3.0> : tensor<70xf32>
  %a0_mean_p0 = stablehlo.multiply %a0_mean_i0, %a0_mean_k0 : tensor<70xf32>
  %a0_mean_m = stablehlo.constant dense<7.0> : tensor<70xf32>
  %a0_mean_o = stablehlo.constant dense<3.0> : tensor<70xf32>
  %a0_mean_r = stablehlo.remainder %a0_mean_p0, %a0_mean_m : tensor<70xf32>
  %a0_mean = stablehlo.subtract %a0_mean_r, %a0_mean_o : tensor<70xf32>
  %a0_scale_i0 = stablehlo.iota dim = 0 : tensor<70xf32>
  %a0_scale_k0 = stablehlo.constant dense<5.0> : tensor<70xf32>
  %a0_scale_p0 = stablehlo.multiply %a0_scale_i0, %a0_scale_k0 : tensor<70xf32>
  %a0_scale_m = stablehlo.constant dense<5.0> : tensor<70xf32>
  %a0_scale_o = stablehlo.constant dense<2.0> : tensor<70xf32>
  %a0_scale_r = stablehlo.remainder %a0_scale_p0, %a0_scale_m : tensor<70xf32>
  %a0_scale = stablehlo.subtract %a0_scale_r, %a0_scale_o : tensor<70xf32>
  %a0_beta_i0 = stablehlo.iota dim = 0 : tensor<11xf32>
  %a0_beta_k0 = stablehlo.constant dense<7.0> : tensor<11xf32>
  %a0_beta_p0 = stablehlo.multiply %a0_beta_i0, %a0_beta_k0 : tensor<11xf32>
  %a0_beta_m = stablehlo.constant dense<11.0> : tensor<11xf32>
  %a0_beta_o = stablehlo.constant dense<5.0> : tensor<11xf32>
  %a0_beta_r = stablehlo.remainder %a0_beta_p0, %a0_beta_m : tensor<11xf32>
  %a0_beta = stablehlo.subtract %a0_beta_r, %a0_beta_o : tensor<11xf32>
  %b0_mean_i0 = stablehlo.iota dim = 0 : tensor<70xf32>
  %b0_mean_k0 = stablehlo.constant dense<3.0> : tensor<70xf32>
  %b0_mean_p0 = stablehlo.multiply %b0_mean_i0, %b0_mean_k0 : tensor<70xf32>
  %b0_mean_m = stablehlo.constant dense<7.0> : tensor<70xf32>
  %b0_mean_o = stablehlo.constant dense<3.0> : tensor<70xf32>
  %b0_mean_r = stablehlo.remainder %b0_mean_p0, %b0_mean_m : tensor<70xf32>
  %b0_mean = stablehlo.subtract %b0_mean_r, %b0_mean_o : tensor<70xf32>
  %b0_scale_i0 = stablehlo.iota dim = 0 : tensor<70xf32>
  %b0_scale_k0 = stablehlo.constant dense<5.0> : tensor<70xf32>
  %b0_scale_p0 = stablehlo.multiply %b0_scale_i0, %b0_scale_k0 : tensor<70xf32>
  %b0_scale_m = stablehlo.constant dense<5.0> : tensor<70xf32>
  %b0_scale_o = stablehlo.constant dense<2.0> : tensor<70xf32>
  %b0_scale_r = stablehlo.remainder %b0_scale_p0, %b0_scale_m : tensor<70xf32>
  %b0_scale = stablehlo.subtract %b0_scale_r, %b0_scale_o : tensor<70xf32>
  %b0_beta_i0 = stablehlo.iota dim = 0 : tensor<11xf32>
  %b0_beta_k0 = stablehlo.constant dense<7.0> : tensor<11xf32>
  %b0_beta_p0 = stablehlo.multiply %b0_beta_i0, %b0_beta_k0 : tensor<11xf32>
  %b0_beta_m = stablehlo.constant dense<11.0> : tensor<11xf32>
  %b0_beta_o = stablehlo.constant dense<5.0> : tensor<11xf32>
  %b0_beta_r = stablehlo.remainder %b0_beta_p0, %b0_beta_m : tensor<11xf32>
  %b0_beta = stablehlo.subtract %b0_beta_r, %b0_beta_o : tensor<11xf32>
  %a0_meanb = stablehlo.broadcast_in_dim %a0_mean, dims = [3] : (tensor<70xf32>) -> tensor<2x9x11x70xf32>
  %a0_scaleb = stablehlo.broadcast_in_dim %a0_scale, dims = [3] : (tensor<70xf32>) -> tensor<2x9x11x70xf32>
  %a0_betab = stablehlo.broadcast_in_dim %a0_beta, dims = [2] : (tensor<11xf32>) -> tensor<2x9x11x70xf32>
  %a0_e0 = stablehlo.subtract %c0, %a0_meanb : tensor<2x9x11x70xf32>
  %a0_e1 = stablehlo.multiply %a0_e0, %a0_scaleb : tensor<2x9x11x70xf32>
  %a0_e2 = stablehlo.add %a0_e1, %a0_betab : tensor<2x9x11x70xf32>
  %a0_z = stablehlo.constant dense<0.0> : tensor<2x9x11x70xf32>
  %a0_y = stablehlo.maximum %a0_e2, %a0_z : tensor<2x9x11x70xf32>
  %b0_meanb = stablehlo.broadcast_in_dim %b0_mean, dims = [3] : (tensor<70xf32>) -> tensor<2x9x11x70xf32>
  %b0_scaleb = stablehlo.broadcast_in_dim %b0_scale, dims = [3] : (tensor<70xf32>) -> tensor<2x9x11x70xf32>
  %b0_betab = stablehlo.broadcast_in_dim %b0_beta, dims = [2] : (tensor<11xf32>) -> tensor<2x9x11x70xf32>
  %b0_e0 = stablehlo.subtract %rt0, %b0_meanb : tensor<2x9x11x70xf32>
  %b0_e1 = stablehlo.multiply %b0_e0, %b0_scaleb : tensor<2x9x11x70xf32>
  %b0_e2 = stablehlo.add %b0_e1, %b0_betab : tensor<2x9x11x70xf32>
  %b0_z = stablehlo.constant dense<0.0> : tensor<2x9x11x70xf32>
  %b0_y = stablehlo.maximum %b0_e2, %b0_z : tensor<2x9x11x70xf32>
  %ya0_j0 = stablehlo.iota dim = 0 : tensor<70x70xi32>
  %ya0_j1 = stablehlo.iota dim = 1 : tensor<70x70xi32>
  %ya0_jq = stablehlo.compare EQ, %ya0_j0, %ya0_j1 : (tensor<70x70xi32>, tensor<70x70xi32>) -> tensor<70x70xi1>
  %ya0_eye = stablehlo.convert %ya0_jq : (tensor<70x70xi1>) -> tensor<70x70xf32>
  %ya0 = stablehlo.dot_general %a0_y, %ya0_eye, contracting_dims = [3] x [0] : (tensor<2x9x11x70xf32>, tensor<70x70xf32>) -> tensor<2x9x11x70xf32>
  %yb0_j0 = stablehlo.iota dim = 0 : tensor<70x70xi32>
  %yb0_j1 = stablehlo.iota dim = 1 : tensor<70x70xi32>
  %yb0_jq = stablehlo.compare EQ, %yb0_j0, %yb0_j1 : (tensor<70x70xi32>, tensor<70x70xi32>) -> tensor<70x70xi1>
  %yb0_eye = stablehlo.convert %yb0_jq : (tensor<70x70xi1>) -> tensor<70x70xf32>
  %yb0 = stablehlo.dot_general %b0_y, %yb0_eye, contracting_dims = [3] x [0] : (tensor<2x9x11x70xf32>, tensor<70x70xf32>) -> tensor<2x9x11x70xf32>
  %eq0 = stablehlo.compare EQ, %ya0, %yb0 : (tensor<2x9x11x70xf32>, tensor<2x9x11x70xf32>) -> tensor<2x9x11x70xi1>
  %t0 = stablehlo.constant dense<true> : tensor<i1>
  %ok0 = stablehlo.reduce(%eq0 init: %t0) applies stablehlo.and across dimensions = [0, 1, 2, 3] : (tensor<2x9x11x70xi1>, tensor<i1>) -> tensor<i1>
  %x1_i0 = stablehlo.iota dim = 0 : tensor<1x8x8x200xf32>
  %x1_k0 = stablehlo.constant dense<3.0> : tensor<1x8x8x200xf32>
  %x1_p0 = stablehlo.multiply %x1_i0, %x1_k0 : tensor<1x8x8x200xf32>
  %x1_i1 = stablehlo.iota dim = 1 : tensor<1x8x8x200xf32>
  %x1_k1 = stablehlo.constant dense<5.0> : tensor<1x8x8x200xf32>
  %x1_p1 = stablehlo.multiply %x1_i1, %x1_k1 : tensor<1x8x8x200xf32>
  %x1_i2 = stablehlo.iota dim = 2 : tensor<1x8x8x200xf32>
  %x1_k2 = stablehlo.constant dense<7.0> : tensor<1x8x8x200xf32>
  %x1_p2 = stablehlo.multiply %x1_i2, %x1_k2 : tensor<1x8x8x200xf32>
  %x1_i3 = stablehlo.iota dim = 3 : tensor<1x8x8x200xf32>
  %x1_k3 = stablehlo.constant dense<2.0> : tensor<1x8x8x200xf32>
  %x1_p3 = stablehlo.multiply %x1_i3, %x1_k3 : tensor<1x8x8x200xf32>
  %x1_s1 = stablehlo.add %x1_p0, %x1_p1 : tensor<1x8x8x200xf32>
  %x1_s2 = stablehlo.add %x1_s1, %x1_p2 : tensor<1x8x8x200xf32>
  %x1_s3 = stablehlo.add %x1_s2, %x1_p3 : tensor<1x8x8x200xf32>
  %x1_m = stablehlo.constant dense<11.0> : tensor<1x8x8x200xf32>
  %x1_o = stablehlo.constant dense<5.0> : tensor<1x8x8x200xf32>
  %x1_r = stablehlo.remainder %x1_s3, %x1_m : tensor<1x8x8x200xf32>
  %x1 = stablehlo.subtract %x1_r, %x1_o : tensor<1x8x8x200xf32>
  %w1_i0 = stablehlo.iota dim = 0 : tensor<1x1x200x33xf32>
  %w1_k0 = stablehlo.constant dense<2.0> : tensor<1x1x200x33xf32>
  %w1_p0 = stablehlo.multiply %w1_i0, %w1_k0 : tensor<1x1x200x33xf32>
  %w1_i1 = stablehlo.iota dim = 1 : tensor<1x1x200x33xf32>
  %w1_k1 = stablehlo.constant dense<3.0> : tensor<1x1x200x33xf32>
  %w1_p1 = stablehlo.multiply %w1_i1, %w1_k1 : tensor<1x1x200x33xf32>
  %w1_i2 = stablehlo.iota dim = 2 : tensor<1x1x200x33xf32>
  %w1_k2 = stablehlo.constant dense<5.0> : tensor<1x1x200x33xf32>
  %w1_p2 = stablehlo.multiply %w1_i2, %w1_k2 : tensor<1x1x200x33xf32>
  %w1_i3 = stablehlo.iota dim = 3 : tensor<1x1x200x33xf32>
  %w1_k3 = stablehlo.constant dense<7.0> : tensor<1x1x200x33xf32>
  %w1_p3 = stablehlo.multiply %w1_i3, %w1_k3 : tensor<1x1x200x33xf32>
  %w1_s1 = stablehlo.add %w1_p0, %w1_p1 : tensor<1x1x200x33xf32>
  %w1_s2 = stablehlo.add %w1_s1, %w1_p2 : tensor<1x1x200x33xf32>
  %w1_s3 = stablehlo.add %w1_s2, %w1_p3 : tensor<1x1x200x33xf32>
  %w1_m = stablehlo.constant dense<13.0> : tensor<1x1x200x33xf32>
  %w1_o = stablehlo.constant dense<6.0> : tensor<1x1x200x33xf32>
  %w1_r = stablehlo.remainder %w1_s3, %w1_m : tensor<1x1x200x33xf32>
  %w1 = stablehlo.subtract %w1_r, %w1_o : tensor<1x1x200x33xf32>
  %c1 = stablehlo.convolution(%x1, %w1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x200xf32>, tensor<1x1x200x33xf32>) -> tensor<1x8x8x33xf32>
  %xt1 = stablehlo.transpose %x1, dims = [0, 3, 1, 2] : (tensor<1x8x8x200xf32>) -> tensor<1x200x8x8xf32>
  %wt1 = stablehlo.transpose %w1, dims = [3, 2, 0, 1] : (tensor<1x1x200x33xf32>) -> tensor<33x200x1x1xf32>
  %r1 = stablehlo.convolution(%xt1, %wt1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x200x8x8xf32>, tensor<33x200x1x1xf32>) -> tensor<1x33x8x8xf32>
  %rt1 = stablehlo.transpose %r1, dims = [0, 2, 3, 1] : (tensor<1x33x8x8xf32>) -> tensor<1x8x8x33xf32>
  %a1_mean_i0 = stablehlo.iota dim = 0 : tensor<33xf32>
  %a1_mean_k0 = stablehlo.constant dense<3.0> : tensor<33xf32>
  %a1_mean_p0 = stablehlo.multiply %a1_mean_i0, %a1_mean_k0 : tensor<33xf32>
  %a1_mean_m = stablehlo.constant dense<7.0> : tensor<33xf32>
  %a1_mean_o = stablehlo.constant dense<3.0> : tensor<33xf32>
  %a1_mean_r = stablehlo.remainder %a1_mean_p0, %a1_mean_m : tensor<33xf32>
  %a1_mean = stablehlo.subtract %a1_mean_r, %a1_mean_o : tensor<33xf32>
  %a1_scale_i0 = stablehlo.iota dim = 0 : tensor<33xf32>
  %a1_scale_k0 = stablehlo.constant dense<5.0> : tensor<33xf32>
  %a1_scale_p0 = stablehlo.multiply %a1_scale_i0, %a1_scale_k0 : tensor<33xf32>
  %a1_scale_m = stablehlo.constant dense<5.0> : tensor<33xf32>
  %a1_scale_o = stablehlo.constant dense<2.0> : tensor<33xf32>
  %a1_scale_r = stablehlo.remainder %a1_scale_p0, %a1_scale_m : tensor<33xf32>
  %a1_scale = stablehlo.subtract %a1_scale_r, %a1_scale_o : tensor<33xf32>
  %a1_beta_i0 = stablehlo.iota dim = 0 : tensor<8xf32>
  %a1_beta_k0 = stablehlo.constant dense<7.0> : tensor<8xf32>
  %a1_beta_p0 = stablehlo.multiply %a1_beta_i0, %a1_beta_k0 : tensor<8xf32>
  %a1_beta_m = stablehlo.constant dense<11.0> : tensor<8xf32>
  %a1_beta_o = stablehlo.constant dense<5.0> : tensor<8xf32>
  %a1_beta_r = stablehlo.remainder %a1_beta_p0, %a1_beta_m : tensor<8xf32>
  %a1_beta = stablehlo.subtract %a1_beta_r, %a1_beta_o : tensor<8xf32>
  %b1_mean_i0 = stablehlo.iota dim = 0 : tensor<33xf32>
  %b1_mean_k0 = stablehlo.constant dense<3.0> : tensor<33xf32>
  %b1_mean_p0 = stablehlo.multiply %b1_mean_i0, %b1_mean_k0 : tensor<33xf32>
  %b1_mean_m = stablehlo.constant dense<7.0> : tensor<33xf32>
  %b1_mean_o = stablehlo.constant dense<3.0> : tensor<33xf32>
  %b1_mean_r = stablehlo.remainder %b1_mean_p0, %b1_mean_m : tensor<33xf32>
  %b1_mean = stablehlo.subtract %b1_mean_r, %b1_mean_o : tensor<33xf32>
  %b1_scale_i0 = stablehlo.iota dim = 0 : tensor<33xf32>
  %b1_scale_k0 = stablehlo.constant dense<5.0> : tensor<33xf32>
  %b1_scale_p0 = stablehlo.multiply %b1_scale_i0, %b1_scale_k0 : tensor<33xf32>
  %b1_scale_m = stablehlo.constant dense<5.0> : tensor<33xf32>
  %b1_scale_o = stablehlo.constant dense<2.0> : tensor<33xf32>
  %b1_scale_r = stablehlo.remainder %b1_scale_p0, %b1_scale_m : tensor<33xf32>
  %b1_scale = stablehlo.subtract %b1_scale_r, %b1_scale_o : tensor<33xf32>
  %b1_beta_i0 = stablehlo.iota dim = 0 : tensor<8xf32>
  %b1_beta_k0 = stablehlo.constant dense<7.0> : tensor<8xf32>
  %b1_beta_p0 = stablehlo.multiply %b1_beta_i0, %b1_beta_k0 : tensor<8xf32>
  %b1_beta_m = stablehlo.constant dense<11.0> : tensor<8xf32>
  %b1_beta_o = stablehlo.constant dense<5.0> : tensor<8xf32>
  %b1_beta_r = stablehlo.remainder %b1_beta_p0, %b1_beta_m : tensor<8xf32>
  %b1_beta = stablehlo.subtract %b1_beta_r, %b1_beta_o : tensor<8xf32>
  %a1_meanb = stablehlo.broadcast_in_dim %a1_mean, dims = [3] : (tensor<33xf32>) -> tensor<1x8x8x33xf32>
  %a1_scaleb = stablehlo.broadcast_in_dim %a1_scale, dims = [3] : (tensor<33xf32>) -> tensor<1x8x8x33xf32>
  %a1_betab = stablehlo.broadcast_in_dim %a1_beta, dims = [2] : (tensor<8xf32>) -> tensor<1x8x8x33xf32>
  %a1_e0 = stablehlo.subtract %c1, %a1_meanb : tensor<1x8x8x33xf32>
  %a1_e1 = stablehlo.multiply %a1_e0, %a1_scaleb : tensor<1x8x8x33xf32>
  %a1_e2 = stablehlo.add %a1_e1, %a1_betab : tensor<1x8x8x33xf32>
  %a1_z = stablehlo.constant dense<0.0> : tensor<1x8x8x33xf32>
  %a1_y = stablehlo.maximum %a1_e2, %a1_z : tensor<1x8x8x33xf32>
  %b1_meanb = stablehlo.broadcast_in_dim %b1_mean, dims = [3] : (tensor<33xf32>) -> tensor<1x8x8x33xf32>
  %b1_scaleb = stablehlo.broadcast_in_dim %b1_scale, dims = [3] : (tensor<33xf32>) -> tensor<1x8x8x33xf32>
  %b1_betab = stablehlo.broadcast_in_dim %b1_beta, dims = [2] : (tensor<8xf32>) -> tensor<1x8x8x33xf32>
  %b1_e0 = stablehlo.subtract %rt1, %b1_meanb : tensor<1x8x8x33xf32>
  %b1_e1 = stablehlo.multiply %b1_e0, %b1_scaleb : tensor<1x8x8x33xf32>
  %b1_e2 = stablehlo.add %b1_e1, %b1_betab : tensor<1x8x8x33xf32>
  %b1_z = stablehlo.constant dense<0.0> : tensor<1x8x8x33xf32>
  %b1_y = stablehlo.maximum %b1_e2, %b1_z : tensor<1x8x8x33xf32>
  %ya1_j0 = stablehlo.iota dim = 0 : tensor<33x33xi32>
  %ya1_j1 = stablehlo.iota dim = 1 : tensor<33x33xi32>
  %ya1_jq = stablehlo.compare EQ, %ya1_j0, %ya1_j1 : (tensor<33x33xi32>, tensor<33x33xi32>) -> tensor<33x33xi1>
  %ya1_eye = stablehlo.convert %ya1_jq : (tensor<33x33xi1>) -> tensor<33x33xf32>
  %ya1 = stablehlo.dot_general %a1_y, %ya1_eye, contracting_dims = [3] x [0] : (tensor<1x8x8x33xf32>, tensor<33x33xf32>) -> tensor<1x8x8x33xf32>
  %yb1_j0 = stablehlo.iota dim = 0 : tensor<33x33xi32>
  %yb1_j1 = stablehlo.iota dim = 1 : tensor<33x33xi32>
  %yb1_jq = stablehlo.compare EQ, %yb1_j0, %yb1_j1 : (tensor<33x33xi32>, tensor<33x33xi32>) -> tensor<33x33xi1>
  %yb1_eye = stablehlo.convert %yb1_jq : (tensor<33x33xi1>) -> tensor<33x33xf32>
  %yb1 = stablehlo.dot_general %b1_y, %yb1_eye, contracting_dims = [3] x [0] : (tensor<1x8x8x33xf32>, tensor<33x33xf32>) -> tensor<1x8x8x33xf32>
  %eq1 = stablehlo.compare EQ, %ya1, %yb1 : (tensor<1x8x8x33xf32>, tensor<1x8x8x33xf32>) -> tensor<1x8x8x33xi1>
  %t1 = stablehlo.constant dense<true> : tensor<i1>
  %ok1 = stablehlo.reduce(%eq1 init: %t1) applies stablehlo.and across dimensions = [0, 1, 2, 3] : (tensor<1x8x8x33xi1>, tensor<i1>) -> tensor<i1>
  %a2_i0 = stablehlo.iota dim = 0 : tensor<2x13x150xf32>
  %a2_k0 = stablehlo.constant dense<3.0> : tensor<2x13x150xf32>
  %a2_p0 = stablehlo.multiply %a2_i0, %a2_k0 : tensor<2x13x150xf32>
  %a2_i1 = stablehlo.iota dim = 1 : tensor<2x13x150xf32>
  %a2_k1 = stablehlo.constant dense<5.0> : tensor<2x13x150xf32>
  %a2_p1 = stablehlo.multiply %a2_i1, %a2_k1 : tensor<2x13x150xf32>
  %a2_i2 = stablehlo.iota dim = 2 : tensor<2x13x150xf32>
  %a2_k2 = stablehlo.constant dense<7.0> : tensor<2x13x150xf32>
  %a2_p2 = stablehlo.multiply %a2_i2, %a2_k2 : tensor<2x13x150xf32>
  %a2_s1 = stablehlo.add %a2_p0, %a2_p1 : tensor<2x13x150xf32>
  %a2_s2 = stablehlo.add %a2_s1, %a2_p2 : tensor<2x13x150xf32>
  %a2_m = stablehlo.constant dense<11.0> : tensor<2x13x150xf32>
  %a2_o = stablehlo.constant dense<5.0> : tensor<2x13x150xf32>
  %a2_r = stablehlo.remainder %a2_s2, %a2_m : tensor<2x13x150xf32>
  %a2 = stablehlo.subtract %a2_r, %a2_o : tensor<2x13x150xf32>
  %b2_i0 = stablehlo.iota dim = 0 : tensor<2x150x3x30xf32>
  %b2_k0 = stablehlo.constant dense<2.0> : tensor<2x150x3x30xf32>
  %b2_p0 = stablehlo.multiply %b2_i0, %b2_k0 : tensor<2x150x3x30xf32>
  %b2_i1 = stablehlo.iota dim = 1 : tensor<2x150x3x30xf32>
  %b2_k1 = stablehlo.constant dense<3.0> : tensor<2x150x3x30xf32>
  %b2_p1 = stablehlo.multiply %b2_i1, %b2_k1 : tensor<2x150x3x30xf32>
  %b2_i2 = stablehlo.iota dim = 2 : tensor<2x150x3x30xf32>
  %b2_k2 = stablehlo.constant dense<5.0> : tensor<2x150x3x30xf32>
  %b2_p2 = stablehlo.multiply %b2_i2, %b2_k2 : tensor<2x150x3x30xf32>
  %b2_i3 = stablehlo.iota dim = 3 : tensor<2x150x3x30xf32>
  %b2_k3 = stablehlo.constant dense<7.0> : tensor<2x150x3x30xf32>
  %b2_p3 = stablehlo.multiply %b2_i3, %b2_k3 : tensor<2x150x3x30xf32>
  %b2_s1 = stablehlo.add %b2_p0, %b2_p1 : tensor<2x150x3x30xf32>
  %b2_s2 = stablehlo.add %b2_s1, %b2_p2 : tensor<2x150x3x30xf32>
  %b2_s3 = stablehlo.add %b2_s2, %b2_p3 : tensor<2x150x3x30xf32>
  %b2_m = stablehlo.constant dense<13.0> : tensor<2x150x3x30xf32>
  %b2_o = stablehlo.constant dense<6.0> : tensor<2x150x3x30xf32>
  %b2_r = stablehlo.remainder %b2_s3, %b2_m : tensor<2x150x3x30xf32>
  %b2 = stablehlo.subtract %b2_r, %b2_o : tensor<2x150x3x30xf32>
  %c2 = stablehlo.dot_general %a2, %b2, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x13x150xf32>, tensor<2x150x3x30xf32>) -> tensor<2x13x3x30xf32>
  %r2 = stablehlo.dot_general %b2, %a2, batching_dims = [0] x [0], contracting_dims = [1] x [2] : (tensor<2x150x3x30xf32>, tensor<2x13x150xf32>) -> tensor<2x3x30x13xf32>
  %rt2 = stablehlo.transpose %r2, dims = [0, 3, 1, 2] : (tensor<2x3x30x13xf32>) -> tensor<2x13x3x30xf32>
  %a2v_mean_i0 = stablehlo.iota dim = 0 : tensor<30xf32>
  %a2v_mean_k0 = stablehlo.constant dense<3.0> : tensor<30xf32>
  %a2v_mean_p0 = stablehlo.multiply %a2v_mean_i0, %a2v_mean_k0 : tensor<30xf32>
  %a2v_mean_m = stablehlo.constant dense<7.0> : tensor<30xf32>
  %a2v_mean_o = stablehlo.constant dense<3.0> : tensor<30xf32>
  %a2v_mean_r = stablehlo.remainder %a2v_mean_p0, %a2v_mean_m : tensor<30xf32>
  %a2v_mean = stablehlo.subtract %a2v_mean_r, %a2v_mean_o : tensor<30xf32>
  %a2v_scale_i0 = stablehlo.iota dim = 0 : tensor<30xf32>
  %a2v_scale_k0 = stablehlo.constant dense<5.0> : tensor<30xf32>
  %a2v_scale_p0 = stablehlo.multiply %a2v_scale_i0, %a2v_scale_k0 : tensor<30xf32>
  %a2v_scale_m = stablehlo.constant dense<5.0> : tensor<30xf32>
  %a2v_scale_o = stablehlo.constant dense<2.0> : tensor<30xf32>
  %a2v_scale_r = stablehlo.remainder %a2v_scale_p0, %a2v_scale_m : tensor<30xf32>
  %a2v_scale = stablehlo.subtract %a2v_scale_r, %a2v_scale_o : tensor<30xf32>
  %a2v_beta_i0 = stablehlo.iota dim = 0 : tensor<3xf32>
  %a2v_beta_k0 = stablehlo.constant dense<7.0> : tensor<3xf32>
  %a2v_beta_p0 = stablehlo.multiply %a2v_beta_i0, %a2v_beta_k0 : tensor<3xf32>
  %a2v_beta_m = stablehlo.constant dense<11.0> : tensor<3xf32>
  %a2v_beta_o = stablehlo.constant dense<5.0> : tensor<3xf32>
  %a2v_beta_r = stablehlo.remainder %a2v_beta_p0, %a2v_beta_m : tensor<3xf32>
  %a2v_beta = stablehlo.subtract %a2v_beta_r, %a2v_beta_o : tensor<3xf32>
  %b2v_mean_i0 = stablehlo.iota dim = 0 : tensor<30xf32>
  %b2v_mean_k0 = stablehlo.constant dense<3.0> : tensor<30xf32>
  %b2v_mean_p0 = stablehlo.multiply %b2v_mean_i0, %b2v_mean_k0 : tensor<30xf32>
  %b2v_mean_m = stablehlo.constant dense<7.0> : tensor<30xf32>
  %b2v_mean_o = stablehlo.constant dense<3.0> : tensor<30xf32>
  %b2v_mean_r = stablehlo.remainder %b2v_mean_p0, %b2v_mean_m : tensor<30xf32>
  %b2v_mean = stablehlo.subtract %b2v_mean_r, %b2v_mean_o : tensor<30xf32>
  %b2v_scale_i0 = stablehlo.iota dim = 0 : tensor<30xf32>
  %b2v_scale_k0 = stablehlo.constant dense<5.0> : tensor<30xf32>
  %b2v_scale_p0 = stablehlo.multiply %b2v_scale_i0, %b2v_scale_k0 : tensor<30xf32>
  %b2v_scale_m = stablehlo.constant dense<5.0> : tensor<30xf32>
  %b2v_scale_o = stablehlo.constant dense<2.0> : tensor<30xf32>
  %b2v_scale_r = stablehlo.remainder %b2v_scale_p0, %b2v_scale_m : tensor<30xf32>
  %b2v_scale = stablehlo.subtract %b2v_scale_r, %b2v_scale_o : tensor<30xf32>
  %b2v_beta_i0 = stablehlo.iota dim = 0 : tensor<3xf32>
  %b2v_beta_k0 = stablehlo.constant dense<7.0> : tensor<3xf32>
  %b2v_beta_p0 = stablehlo.multiply %b2v_beta_i0, %b2v_beta_k0 : tensor<3xf32>
  %b2v_beta_m = stablehlo.constant dense<11.0> : tensor<3xf32>
  %b2v_beta_o = stablehlo.constant dense<5.0> : tensor<3xf32>
  %b2v_beta_r = stablehlo.remainder %b2v_beta_p0, %b2v_beta_m : tensor<3xf32>
  %b2v_beta = stablehlo.subtract %b2v_beta_r, %b2v_beta_o : tensor<3xf32>
  %a2v_meanb = stablehlo.broadcast_in_dim %a2v_mean, dims = [3] : (tensor<30xf32>) -> tensor<2x13x3x30xf32>
  %a2v_scaleb = stablehlo.broadcast_in_dim %a2v_scale, dims = [3] : (tensor<30xf32>) -> tensor<2x13x3x30xf32>
  %a2v_betab = stablehlo.broadcast_in_dim %a2v_beta, dims = [2] : (tensor<3xf32>) -> tensor<2x13x3x30xf32>
  %a2v_e0 = stablehlo.subtract %c2, %a2v_meanb : tensor<2x13x3x30xf32>
  %a2v_e1 = stablehlo.multiply %a2v_e0, %a2v_scaleb : tensor<2x13x3x30xf32>
  %a2v_e2 = stablehlo.add %a2v_e1, %a2v_betab : tensor<2x13x3x30xf32>
  %a2v_z = stablehlo.constant dense<0.0> : tensor<2x13x3x30xf32>
  %a2v_y = stablehlo.maximum %a2v_e2, %a2v_z : tensor<2x13x3x30xf32>
  %b2v_meanb = stablehlo.broadcast_in_dim %b2v_mean, dims = [3] : (tensor<30xf32>) -> tensor<2x13x3x30xf32>
  %b2v_scaleb = stablehlo.broadcast_in_dim %b2v_scale, dims = [3] : (tensor<30xf32>) -> tensor<2x13x3x30xf32>
  %b2v_betab = stablehlo.broadcast_in_dim %b2v_beta, dims = [2] : (tensor<3xf32>) -> tensor<2x13x3x30xf32>
  %b2v_e0 = stablehlo.subtract %rt2, %b2v_meanb : tensor<2x13x3x30xf32>
  %b2v_e1 = stablehlo.multiply %b2v_e0, %b2v_scaleb : tensor<2x13x3x30xf32>
  %b2v_e2 = stablehlo.add %b2v_e1, %b2v_betab : tensor<2x13x3x30xf32>
  %b2v_z = stablehlo.constant dense<0.0> : tensor<2x13x3x30xf32>
  %b2v_y = stablehlo.maximum %b2v_e2, %b2v_z : tensor<2x13x3x30xf32>
  %ya2_j0 = stablehlo.iota dim = 0 : tensor<30x30xi32>
  %ya2_j1 = stablehlo.iota dim = 1 : tensor<30x30xi32>
  %ya2_jq = stablehlo.compare EQ, %ya2_j0, %ya2_j1 : (tensor<30x30xi32>, tensor<30x30xi32>) -> tensor<30x30xi1>
  %ya2_eye = stablehlo.convert %ya2_jq : (tensor<30x30xi1>) -> tensor<30x30xf32>
  %ya2 = stablehlo.dot_general %a2v_y, %ya2_eye, contracting_dims = [3] x [0] : (tensor<2x13x3x30xf32>, tensor<30x30xf32>) -> tensor<2x13x3x30xf32>
  %yb2_j0 = stablehlo.iota dim = 0 : tensor<30x30xi32>
  %yb2_j1 = stablehlo.iota dim = 1 : tensor<30x30xi32>
  %yb2_jq = stablehlo.compare EQ, %yb2_j0, %yb2_j1 : (tensor<30x30xi32>, tensor<30x30xi32>) -> tensor<30x30xi1>
  %yb2_eye = stablehlo.convert %yb2_jq : (tensor<30x30xi1>) -> tensor<30x30xf32>
  %yb2 = stablehlo.dot_general %b2v_y, %yb2_eye, contracting_dims = [3] x [0] : (tensor<2x13x3x30xf32>, tensor<30x30xf32>) -> tensor<2x13x3x30xf32>
  %eq2 = stablehlo.compare EQ, %ya2, %yb2 : (tensor<2x13x3x30xf32>, tensor<2x13x3x30xf32>) -> tensor<2x13x3x30xi1>
  %t2 = stablehlo.constant dense<true> : tensor<i1>
  %ok2 = stablehlo.reduce(%eq2 init: %t2) applies stablehlo.and across dimensions = [0, 1, 2, 3] : (tensor<2x13x3x30xi1>, tensor<i1>) -> tensor<i1>
  %a3_i0 = stablehlo.iota dim = 0 : tensor<300xf32>
  %a3_k0 = stablehlo.constant dense<7.0> : tensor<300xf32>
  %a3_p0 = stablehlo.multiply %a3_i0, %a3_k0 : tensor<300xf32>
  %a3_m = stablehlo.constant dense<11.0> : tensor<300xf32>
  %a3_o = stablehlo.constant dense<5.0> : tensor<300xf32>
  %a3_r = stablehlo.remainder %a3_p0, %a3_m : tensor<300xf32>
  %a3 = stablehlo.subtract %a3_r, %a3_o : tensor<300xf32>
  %b3_i0 = stablehlo.iota dim = 0 : tensor<300x77xf32>
  %b3_k0 = stablehlo.constant dense<3.0> : tensor<300x77xf32>
  %b3_p0 = stablehlo.multiply %b3_i0, %b3_k0 : tensor<300x77xf32>
  %b3_i1 = stablehlo.iota dim = 1 : tensor<300x77xf32>
  %b3_k1 = stablehlo.constant dense<5.0> : tensor<300x77xf32>
  %b3_p1 = stablehlo.multiply %b3_i1, %b3_k1 : tensor<300x77xf32>
  %b3_s1 = stablehlo.add %b3_p0, %b3_p1 : tensor<300x77xf32>
  %b3_m = stablehlo.constant dense<13.0> : tensor<300x77xf32>
  %b3_o = stablehlo.constant dense<6.0> : tensor<300x77xf32>
  %b3_r = stablehlo.remainder %b3_s1, %b3_m : tensor<300x77xf32>
  %b3 = stablehlo.subtract %b3_r, %b3_o : tensor<300x77xf32>
  %c3 = stablehlo.dot_general %a3, %b3, contracting_dims = [0] x [0] : (tensor<300xf32>, tensor<300x77xf32>) -> tensor<77xf32>
  %bt3 = stablehlo.transpose %b3, dims = [1, 0] : (tensor<300x77xf32>) -> tensor<77x300xf32>
  %r3 = stablehlo.dot_general %bt3, %a3, contracting_dims = [1] x [0] : (tensor<77x300xf32>, tensor<300xf32>) -> tensor<77xf32>
  %a3v_mean_i0 = stablehlo.iota dim = 0 : tensor<77xf32>
  %a3v_mean_k0 = stablehlo.constant dense<3.0> : tensor<77xf32>
  %a3v_mean_p0 = stablehlo.multiply %a3v_mean_i0, %a3v_mean_k0 : tensor<77xf32>
  %a3v_mean_m = stablehlo.constant dense<7.0> : tensor<77xf32>
  %a3v_mean_o = stablehlo.constant dense<3.0> : tensor<77xf32>
  %a3v_mean_r = stablehlo.remainder %a3v_mean_p0, %a3v_mean_m : tensor<77xf32>
  %a3v_mean = stablehlo.subtract %a3v_mean_r, %a3v_mean_o : tensor<77xf32>
  %a3v_scale_i0 = stablehlo.iota dim = 0 : tensor<77xf32>
  %a3v_scale_k0 = stablehlo.constant dense<5.0> : tensor<77xf32>
  %a3v_scale_p0 = stablehlo.multiply %a3v_scale_i0, %a3v_scale_k0 : tensor<77xf32>
  %a3v_scale_m = stablehlo.constant dense<5.0> : tensor<77xf32>
  %a3v_scale_o = stablehlo.constant dense<2.0> : tensor<77xf32>
  %a3v_scale_r = stablehlo.remainder %a3v_scale_p0, %a3v_scale_m : tensor<77xf32>
  %a3v_scale = stablehlo.subtract %a3v_scale_r, %a3v_scale_o : tensor<77xf32>
  %a3v_beta_i0 = stablehlo.iota dim = 0 : tensor<77xf32>
  %a3v_beta_k0 = stablehlo.constant dense<7.0> : tensor<77xf32>
  %a3v_beta_p0 = stablehlo.multiply %a3v_beta_i0, %a3v_beta_k0 : tensor<77xf32>
  %a3v_beta_m = stablehlo.constant dense<11.0> : tensor<77xf32>
  %a3v_beta_o = stablehlo.constant dense<5.0> : tensor<77xf32>
  %a3v_beta_r = stablehlo.remainder %a3v_beta_p0, %a3v_beta_m : tensor<77xf32>
  %a3v_beta = stablehlo.subtract %a3v_beta_r, %a3v_beta_o : tensor<77xf32>
  %b3v_mean_i0 = stablehlo.iota dim = 0 : tensor<77xf32>
  %b3v_mean_k0 = stablehlo.constant dense<3.0> : tensor<77xf32>
  %b3v_mean_p0 = stablehlo.multiply %b3v_mean_i0, %b3v_mean_k0 : tensor<77xf32>
  %b3v_mean_m = stablehlo.constant dense<7.0> : tensor<77xf32>
  %b3v_mean_o = stablehlo.constant dense<3.0> : tensor<77xf32>
  %b3v_mean_r = stablehlo.remainder %b3v_mean_p0, %b3v_mean_m : tensor<77xf32>
  %b3v_mean = stablehlo.subtract %b3v_mean_r, %b3v_mean_o : tensor<77xf32>
  %b3v_scale_i0 = stablehlo.iota dim = 0 : tensor<77xf32>
  %b3v_scale_k0 = stablehlo.constant dense<5.0> : tensor<77xf32>
  %b3v_scale_p0 = stablehlo.multiply %b3v_scale_i0, %b3v_scale_k0 : tensor<77xf32>
  %b3v_scale_m = stablehlo.constant dense<5.0> : tensor<77xf32>
  %b3v_scale_o = stablehlo.constant dense<2.0> : tensor<77xf32>
  %b3v_scale_r = stablehlo.remainder %b3v_scale_p0, %b3v_scale_m : tensor<77xf32>
  %b3v_scale = stablehlo.subtract %b3v_scale_r, %b3v_scale_o : tensor<77xf32>
  %b3v_beta_i0 = stablehlo.iota dim = 0 : tensor<77xf32>
  %b3v_beta_k0 = stablehlo.constant dense<7.0> : tensor<77xf32>
  %b3v_beta_p0 = stablehlo.multiply %b3v_beta_i0, %b3v_beta_k0 : tensor<77xf32>
  %b3v_beta_m = stablehlo.constant dense<11.0> : tensor<77xf32>
  %b3v_beta_o = stablehlo.constant dense<5.0> : tensor<77xf32>
  %b3v_beta_r = stablehlo.remainder %b3v_beta_p0, %b3v_beta_m : tensor<77xf32>
  %b3v_beta = stablehlo.subtract %b3v_beta_r, %b3v_beta_o : tensor<77xf32>
  %a3v_meanb = stablehlo.broadcast_in_dim %a3v_mean, dims = [0] : (tensor<77xf32>) -> tensor<77xf32>
  %a3v_scaleb = stablehlo.broadcast_in_dim %a3v_scale, dims = [0] : (tensor<77xf32>) -> tensor<77xf32>
  %a3v_betab = stablehlo.broadcast_in_dim %a3v_beta, dims = [0] : (tensor<77xf32>) -> tensor<77xf32>
  %a3v_e0 = stablehlo.subtract %c3, %a3v_meanb : tensor<77xf32>
  %a3v_e1 = stablehlo.multiply %a3v_e0, %a3v_scaleb : tensor<77xf32>
  %a3v_e2 = stablehlo.add %a3v_e1, %a3v_betab : tensor<77xf32>
  %a3v_z = stablehlo.constant dense<0.0> : tensor<77xf32>
  %a3v_y = stablehlo.maximum %a3v_e2, %a3v_z : tensor<77xf32>
  %b3v_meanb = stablehlo.broadcast_in_dim %b3v_mean, dims = [0] : (tensor<77xf32>) -> tensor<77xf32>
  %b3v_scaleb = stablehlo.broadcast_in_dim %b3v_scale, dims = [0] : (tensor<77xf32>) -> tensor<77xf32>
  %b3v_betab = stablehlo.broadcast_in_dim %b3v_beta, dims = [0] : (tensor<77xf32>) -> tensor<77xf32>
  %b3v_e0 = stablehlo.subtract %r3, %b3v_meanb : tensor<77xf32>
  %b3v_e1 = stablehlo.multiply %b3v_e0, %b3v_scaleb : tensor<77xf32>
  %b3v_e2 = stablehlo.add %b3v_e1, %b3v_betab : tensor<77xf32>
  %b3v_z = stablehlo.constant dense<0.0> : tensor<77xf32>
  %b3v_y = stablehlo.maximum %b3v_e2, %b3v_z : tensor<77xf32>
  %ya3_j0 = stablehlo.iota dim = 0 : tensor<77x77xi32>
  %ya3_j1 = stablehlo.iota dim = 1 : tensor<77x77xi32>
  %ya3_jq = stablehlo.compare EQ, %ya3_j0, %ya3_j1 : (tensor<77x77xi32>, tensor<77x77xi32>) -> tensor<77x77xi1>
  %ya3_eye = stablehlo.convert %ya3_jq : (tensor<77x77xi1>) -> tensor<77x77xf32>
  %ya3 = stablehlo.dot_general %a3v_y, %ya3_eye, contracting_dims = [0] x [0] : (tensor<77xf32>, tensor<77x77xf32>) -> tensor<77xf32>
  %yb3_j0 = stablehlo.iota dim = 0 : tensor<77x77xi32>
  %yb3_j1 = stablehlo.iota dim = 1 : tensor<77x77xi32>
  %yb3_jq = stablehlo.compare EQ, %yb3_j0, %yb3_j1 : (tensor<77x77xi32>, tensor<77x77xi32>) -> tensor<77x77xi1>
  %yb3_eye = stablehlo.convert %yb3_jq : (tensor<77x77xi1>) -> tensor<77x77xf32>
  %yb3 = stablehlo.dot_general %b3v_y, %yb3_eye, contracting_dims = [0] x [0] : (tensor<77xf32>, tensor<77x77xf32>) -> tensor<77xf32>
  %eq3 = stablehlo.compare EQ, %ya3, %yb3 : (tensor<77xf32>, tensor<77xf32>) -> tensor<77xi1>
  %t3 = stablehlo.constant dense<true> : tensor<i1>
  %ok3 = stablehlo.reduce(%eq3 init: %t3) applies stablehlo.and across dimensions = [0] : (tensor<77xi1>, tensor<i1>) -> tensor<i1>
  %a4 = stablehlo.constant dense<1.0> : tensor<7x0xf32>
  %b4 = stablehlo.constant dense<1.0> : tensor<0x20xf32>
  %c4 = stablehlo.dot_general %a4, %b4, contracting_dims = [1] x [0] : (tensor<7x0xf32>, tensor<0x20xf32>) -> tensor<7x20xf32>
  %zz4 = stablehlo.constant dense<0.0> : tensor<7x20xf32>
  %a4v_mean_i0 = stablehlo.iota dim = 0 : tensor<20xf32>
  %a4v_mean_k0 = stablehlo.constant dense<3.0> : tensor<20xf32>
  %a4v_mean_p0 = stablehlo.multiply %a4v_mean_i0, %a4v_mean_k0 : tensor<20xf32>
  %a4v_mean_m = stablehlo.constant dense<7.0> : tensor<20xf32>
  %a4v_mean_o = stablehlo.constant dense<3.0> : tensor<20xf32>
  %a4v_mean_r = stablehlo.remainder %a4v_mean_p0, %a4v_mean_m : tensor<20xf32>
  %a4v_mean = stablehlo.subtract %a4v_mean_r, %a4v_mean_o : tensor<20xf32>
  %a4v_scale_i0 = stablehlo.iota dim = 0 : tensor<20xf32>
  %a4v_scale_k0 = stablehlo.constant dense<5.0> : tensor<20xf32>
  %a4v_scale_p0 = stablehlo.multiply %a4v_scale_i0, %a4v_scale_k0 : tensor<20xf32>
  %a4v_scale_m = stablehlo.constant dense<5.0> : tensor<20xf32>
  %a4v_scale_o = stablehlo.constant dense<2.0> : tensor<20xf32>
  %a4v_scale_r = stablehlo.remainder %a4v_scale_p0, %a4v_scale_m : tensor<20xf32>
  %a4v_scale = stablehlo.subtract %a4v_scale_r, %a4v_scale_o : tensor<20xf32>
  %a4v_beta_i0 = stablehlo.iota dim = 0 : tensor<20xf32>
  %a4v_beta_k0 = stablehlo.constant dense<7.0> : tensor<20xf32>
  %a4v_beta_p0 = stablehlo.multiply %a4v_beta_i0, %a4v_beta_k0 : tensor<20xf32>
  %a4v_beta_m = stablehlo.constant dense<11.0> : tensor<20xf32>
  %a4v_beta_o = stablehlo.constant dense<5.0> : tensor<20xf32>
  %a4v_beta_r = stablehlo.remainder %a4v_beta_p0, %a4v_beta_m : tensor<20xf32>
  %a4v_beta = stablehlo.subtract %a4v_beta_r, %a4v_beta_o : tensor<20xf32>
  %b4v_mean_i0 = stablehlo.iota dim = 0 : tensor<20xf32>
  %b4v_mean_k0 = stablehlo.constant dense<3.0> : tensor<20xf32>
  %b4v_mean_p0 = stablehlo.multiply %b4v_mean_i0, %b4v_mean_k0 : tensor<20xf32>
  %b4v_mean_m = stablehlo.constant dense<7.0> : tensor<20xf32>
  %b4v_mean_o = stablehlo.constant dense<3.0> : tensor<20xf32>
  %b4v_mean_r = stablehlo.remainder %b4v_mean_p0, %b4v_mean_m : tensor<20xf32>
  %b4v_mean = stablehlo.subtract %b4v_mean_r, %b4v_mean_o : tensor<20xf32>
  %b4v_scale_i0 = stablehlo.iota dim = 0 : tensor<20xf32>
  %b4v_scale_k0 = stablehlo.constant dense<5.0> : tensor<20xf32>
  %b4v_scale_p0 = stablehlo.multiply %b4v_scale_i0, %b4v_scale_k0 : tensor<20xf32>
  %b4v_scale_m = stablehlo.constant dense<5.0> : tensor<20xf32>
  %b4v_scale_o = stablehlo.constant dense<2.0> : tensor<20xf32>
  %b4v_scale_r = stablehlo.remainder %b4v_scale_p0, %b4v_scale_m : tensor<20xf32>
  %b4v_scale = stablehlo.subtract %b4v_scale_r, %b4v_scale_o : tensor<20xf32>
  %b4v_beta_i0 = stablehlo.iota dim = 0 : tensor<20xf32>
  %b4v_beta_k0 = stablehlo.constant dense<7.0> : tensor<20xf32>
  %b4v_beta_p0 = stablehlo.multiply %b4v_beta_i0, %b4v_beta_k0 : tensor<20xf32>
  %b4v_beta_m = stablehlo.constant dense<11.0> : tensor<20xf32>
  %b4v_beta_o = stablehlo.constant dense<5.0> : tensor<20xf32>
  %b4v_beta_r = stablehlo.remainder %b4v_beta_p0, %b4v_beta_m : tensor<20xf32>
  %b4v_beta = stablehlo.subtract %b4v_beta_r, %b4v_beta_o : tensor<20xf32>
  %a4v_meanb = stablehlo.broadcast_in_dim %a4v_mean, dims = [1] : (tensor<20xf32>) -> tensor<7x20xf32>
  %a4v_scaleb = stablehlo.broadcast_in_dim %a4v_scale, dims = [1] : (tensor<20xf32>) -> tensor<7x20xf32>
  %a4v_betab = stablehlo.broadcast_in_dim %a4v_beta, dims = [1] : (tensor<20xf32>) -> tensor<7x20xf32>
  %a4v_e0 = stablehlo.subtract %c4, %a4v_meanb : tensor<7x20xf32>
  %a4v_e1 = stablehlo.multiply %a4v_e0, %a4v_scaleb : tensor<7x20xf32>
  %a4v_e2 = stablehlo.add %a4v_e1, %a4v_betab : tensor<7x20xf32>
  %a4v_z = stablehlo.constant dense<0.0> : tensor<7x20xf32>
  %a4v_y = stablehlo.maximum %a4v_e2, %a4v_z : tensor<7x20xf32>
  %b4v_meanb = stablehlo.broadcast_in_dim %b4v_mean, dims = [1] : (tensor<20xf32>) -> tensor<7x20xf32>
  %b4v_scaleb = stablehlo.broadcast_in_dim %b4v_scale, dims = [1] : (tensor<20xf32>) -> tensor<7x20xf32>
  %b4v_betab = stablehlo.broadcast_in_dim %b4v_beta, dims = [1] : (tensor<20xf32>) -> tensor<7x20xf32>
  %b4v_e0 = stablehlo.subtract %zz4, %b4v_meanb : tensor<7x20xf32>
  %b4v_e1 = stablehlo.multiply %b4v_e0, %b4v_scaleb : tensor<7x20xf32>
  %b4v_e2 = stablehlo.add %b4v_e1, %b4v_betab : tensor<7x20xf32>
  %b4v_z = stablehlo.constant dense<0.0> : tensor<7x20xf32>
  %b4v_y = stablehlo.maximum %b4v_e2, %b4v_z : tensor<7x20xf32>
  %ya4_j0 = stablehlo.iota dim = 0 : tensor<20x20xi32>
  %ya4_j1 = stablehlo.iota dim = 1 : tensor<20x20xi32>
  %ya4_jq = stablehlo.compare EQ, %ya4_j0, %ya4_j1 : (tensor<20x20xi32>, tensor<20x20xi32>) -> tensor<20x20xi1>
  %ya4_eye = stablehlo.convert %ya4_jq : (tensor<20x20xi1>) -> tensor<20x20xf32>
  %ya4 = stablehlo.dot_general %a4v_y, %ya4_eye, contracting_dims = [1] x [0] : (tensor<7x20xf32>, tensor<20x20xf32>) -> tensor<7x20xf32>
  %yb4_j0 = stablehlo.iota dim = 0 : tensor<20x20xi32>
  %yb4_j1 = stablehlo.iota dim = 1 : tensor<20x20xi32>
  %yb4_jq = stablehlo.compare EQ, %yb4_j0, %yb4_j1 : (tensor<20x20xi32>, tensor<20x20xi32>) -> tensor<20x20xi1>
  %yb4_eye = stablehlo.convert %yb4_jq : (tensor<20x20xi1>) -> tensor<20x20xf32>
  %yb4 = stablehlo.dot_general %b4v_y, %yb4_eye, contracting_dims = [1] x [0] : (tensor<7x20xf32>, tensor<20x20xf32>) -> tensor<7x20xf32>
  %eq4 = stablehlo.compare EQ, %ya4, %yb4 : (tensor<7x20xf32>, tensor<7x20xf32>) -> tensor<7x20xi1>
  %t4 = stablehlo.constant dense<true> : tensor<i1>
  %ok4 = stablehlo.reduce(%eq4 init: %t4) applies stablehlo.and across dimensions = [0, 1] : (tensor<7x20xi1>, tensor<i1>) -> tensor<i1>
  return %ok0, %ok1, %ok2, %ok3, %ok4 : tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>
}
