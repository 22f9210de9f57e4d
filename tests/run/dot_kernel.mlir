// The blocked dot_general kernel (codegen/dot.c) against a reference
// made of broadcast, multiply and reduce, on integer-valued inputs so
// that every sum is exact: each result is `all elements equal`.
// Generated: odd shapes, transposed operands, batches, f64, K = 0.
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
func.func @main() -> (tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>) {
  %a0_i0 = stablehlo.iota dim = 0 : tensor<37x300xf32>
  %a0_i1 = stablehlo.iota dim = 1 : tensor<37x300xf32>
  %a0_c0 = stablehlo.constant dense<7.0> : tensor<37x300xf32>
  %a0_c1 = stablehlo.constant dense<3.0> : tensor<37x300xf32>
  %a0_cm = stablehlo.constant dense<11.0> : tensor<37x300xf32>
  %a0_co = stablehlo.constant dense<5.0> : tensor<37x300xf32>
  %a0_p0 = stablehlo.multiply %a0_i0, %a0_c0 : tensor<37x300xf32>
  %a0_p1 = stablehlo.multiply %a0_i1, %a0_c1 : tensor<37x300xf32>
  %a0_s = stablehlo.add %a0_p0, %a0_p1 : tensor<37x300xf32>
  %a0_r = stablehlo.remainder %a0_s, %a0_cm : tensor<37x300xf32>
  %a0 = stablehlo.subtract %a0_r, %a0_co : tensor<37x300xf32>
  %b0_i0 = stablehlo.iota dim = 0 : tensor<300x45xf32>
  %b0_i1 = stablehlo.iota dim = 1 : tensor<300x45xf32>
  %b0_c0 = stablehlo.constant dense<5.0> : tensor<300x45xf32>
  %b0_c1 = stablehlo.constant dense<2.0> : tensor<300x45xf32>
  %b0_cm = stablehlo.constant dense<13.0> : tensor<300x45xf32>
  %b0_co = stablehlo.constant dense<6.0> : tensor<300x45xf32>
  %b0_p0 = stablehlo.multiply %b0_i0, %b0_c0 : tensor<300x45xf32>
  %b0_p1 = stablehlo.multiply %b0_i1, %b0_c1 : tensor<300x45xf32>
  %b0_s = stablehlo.add %b0_p0, %b0_p1 : tensor<300x45xf32>
  %b0_r = stablehlo.remainder %b0_s, %b0_cm : tensor<300x45xf32>
  %b0 = stablehlo.subtract %b0_r, %b0_co : tensor<300x45xf32>
  %d0 = stablehlo.dot_general %a0, %b0, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<37x300xf32>, tensor<300x45xf32>) -> tensor<37x45xf32>
  %ba0 = stablehlo.broadcast_in_dim %a0, dims = [0, 2] : (tensor<37x300xf32>) -> tensor<37x45x300xf32>
  %bb0 = stablehlo.broadcast_in_dim %b0, dims = [2, 1] : (tensor<300x45xf32>) -> tensor<37x45x300xf32>
  %m0 = stablehlo.multiply %ba0, %bb0 : tensor<37x45x300xf32>
  %z0 = stablehlo.constant dense<0.0> : tensor<f32>
  %ref0 = stablehlo.reduce(%m0 init: %z0) applies stablehlo.add across dimensions = [2] : (tensor<37x45x300xf32>, tensor<f32>) -> tensor<37x45xf32>
  %eq0 = stablehlo.compare EQ, %d0, %ref0 : (tensor<37x45xf32>, tensor<37x45xf32>) -> tensor<37x45xi1>
  %t0 = stablehlo.constant dense<true> : tensor<i1>
  %ok0 = stablehlo.reduce(%eq0 init: %t0) applies stablehlo.and across dimensions = [0, 1] : (tensor<37x45xi1>, tensor<i1>) -> tensor<i1>
  %a1_i0 = stablehlo.iota dim = 0 : tensor<37x300xf32>
  %a1_i1 = stablehlo.iota dim = 1 : tensor<37x300xf32>
  %a1_c0 = stablehlo.constant dense<7.0> : tensor<37x300xf32>
  %a1_c1 = stablehlo.constant dense<3.0> : tensor<37x300xf32>
  %a1_cm = stablehlo.constant dense<11.0> : tensor<37x300xf32>
  %a1_co = stablehlo.constant dense<5.0> : tensor<37x300xf32>
  %a1_p0 = stablehlo.multiply %a1_i0, %a1_c0 : tensor<37x300xf32>
  %a1_p1 = stablehlo.multiply %a1_i1, %a1_c1 : tensor<37x300xf32>
  %a1_s = stablehlo.add %a1_p0, %a1_p1 : tensor<37x300xf32>
  %a1_r = stablehlo.remainder %a1_s, %a1_cm : tensor<37x300xf32>
  %a1 = stablehlo.subtract %a1_r, %a1_co : tensor<37x300xf32>
  %b1_i0 = stablehlo.iota dim = 0 : tensor<45x300xf32>
  %b1_i1 = stablehlo.iota dim = 1 : tensor<45x300xf32>
  %b1_c0 = stablehlo.constant dense<5.0> : tensor<45x300xf32>
  %b1_c1 = stablehlo.constant dense<2.0> : tensor<45x300xf32>
  %b1_cm = stablehlo.constant dense<13.0> : tensor<45x300xf32>
  %b1_co = stablehlo.constant dense<6.0> : tensor<45x300xf32>
  %b1_p0 = stablehlo.multiply %b1_i0, %b1_c0 : tensor<45x300xf32>
  %b1_p1 = stablehlo.multiply %b1_i1, %b1_c1 : tensor<45x300xf32>
  %b1_s = stablehlo.add %b1_p0, %b1_p1 : tensor<45x300xf32>
  %b1_r = stablehlo.remainder %b1_s, %b1_cm : tensor<45x300xf32>
  %b1 = stablehlo.subtract %b1_r, %b1_co : tensor<45x300xf32>
  %d1 = stablehlo.dot_general %a1, %b1, batching_dims = [] x [], contracting_dims = [1] x [1] : (tensor<37x300xf32>, tensor<45x300xf32>) -> tensor<37x45xf32>
  %ba1 = stablehlo.broadcast_in_dim %a1, dims = [0, 2] : (tensor<37x300xf32>) -> tensor<37x45x300xf32>
  %bb1 = stablehlo.broadcast_in_dim %b1, dims = [1, 2] : (tensor<45x300xf32>) -> tensor<37x45x300xf32>
  %m1 = stablehlo.multiply %ba1, %bb1 : tensor<37x45x300xf32>
  %z1 = stablehlo.constant dense<0.0> : tensor<f32>
  %ref1 = stablehlo.reduce(%m1 init: %z1) applies stablehlo.add across dimensions = [2] : (tensor<37x45x300xf32>, tensor<f32>) -> tensor<37x45xf32>
  %eq1 = stablehlo.compare EQ, %d1, %ref1 : (tensor<37x45xf32>, tensor<37x45xf32>) -> tensor<37x45xi1>
  %t1 = stablehlo.constant dense<true> : tensor<i1>
  %ok1 = stablehlo.reduce(%eq1 init: %t1) applies stablehlo.and across dimensions = [0, 1] : (tensor<37x45xi1>, tensor<i1>) -> tensor<i1>
  %a2_i0 = stablehlo.iota dim = 0 : tensor<300x37xf32>
  %a2_i1 = stablehlo.iota dim = 1 : tensor<300x37xf32>
  %a2_c0 = stablehlo.constant dense<7.0> : tensor<300x37xf32>
  %a2_c1 = stablehlo.constant dense<3.0> : tensor<300x37xf32>
  %a2_cm = stablehlo.constant dense<11.0> : tensor<300x37xf32>
  %a2_co = stablehlo.constant dense<5.0> : tensor<300x37xf32>
  %a2_p0 = stablehlo.multiply %a2_i0, %a2_c0 : tensor<300x37xf32>
  %a2_p1 = stablehlo.multiply %a2_i1, %a2_c1 : tensor<300x37xf32>
  %a2_s = stablehlo.add %a2_p0, %a2_p1 : tensor<300x37xf32>
  %a2_r = stablehlo.remainder %a2_s, %a2_cm : tensor<300x37xf32>
  %a2 = stablehlo.subtract %a2_r, %a2_co : tensor<300x37xf32>
  %b2_i0 = stablehlo.iota dim = 0 : tensor<300x45xf32>
  %b2_i1 = stablehlo.iota dim = 1 : tensor<300x45xf32>
  %b2_c0 = stablehlo.constant dense<5.0> : tensor<300x45xf32>
  %b2_c1 = stablehlo.constant dense<2.0> : tensor<300x45xf32>
  %b2_cm = stablehlo.constant dense<13.0> : tensor<300x45xf32>
  %b2_co = stablehlo.constant dense<6.0> : tensor<300x45xf32>
  %b2_p0 = stablehlo.multiply %b2_i0, %b2_c0 : tensor<300x45xf32>
  %b2_p1 = stablehlo.multiply %b2_i1, %b2_c1 : tensor<300x45xf32>
  %b2_s = stablehlo.add %b2_p0, %b2_p1 : tensor<300x45xf32>
  %b2_r = stablehlo.remainder %b2_s, %b2_cm : tensor<300x45xf32>
  %b2 = stablehlo.subtract %b2_r, %b2_co : tensor<300x45xf32>
  %d2 = stablehlo.dot_general %a2, %b2, batching_dims = [] x [], contracting_dims = [0] x [0] : (tensor<300x37xf32>, tensor<300x45xf32>) -> tensor<37x45xf32>
  %ba2 = stablehlo.broadcast_in_dim %a2, dims = [2, 0] : (tensor<300x37xf32>) -> tensor<37x45x300xf32>
  %bb2 = stablehlo.broadcast_in_dim %b2, dims = [2, 1] : (tensor<300x45xf32>) -> tensor<37x45x300xf32>
  %m2 = stablehlo.multiply %ba2, %bb2 : tensor<37x45x300xf32>
  %z2 = stablehlo.constant dense<0.0> : tensor<f32>
  %ref2 = stablehlo.reduce(%m2 init: %z2) applies stablehlo.add across dimensions = [2] : (tensor<37x45x300xf32>, tensor<f32>) -> tensor<37x45xf32>
  %eq2 = stablehlo.compare EQ, %d2, %ref2 : (tensor<37x45xf32>, tensor<37x45xf32>) -> tensor<37x45xi1>
  %t2 = stablehlo.constant dense<true> : tensor<i1>
  %ok2 = stablehlo.reduce(%eq2 init: %t2) applies stablehlo.and across dimensions = [0, 1] : (tensor<37x45xi1>, tensor<i1>) -> tensor<i1>
  %a3_i0 = stablehlo.iota dim = 1 : tensor<3x37x70xf32>
  %a3_i1 = stablehlo.iota dim = 2 : tensor<3x37x70xf32>
  %a3_ib = stablehlo.iota dim = 0 : tensor<3x37x70xf32>
  %a3_c0 = stablehlo.constant dense<7.0> : tensor<3x37x70xf32>
  %a3_c1 = stablehlo.constant dense<3.0> : tensor<3x37x70xf32>
  %a3_cm = stablehlo.constant dense<11.0> : tensor<3x37x70xf32>
  %a3_co = stablehlo.constant dense<5.0> : tensor<3x37x70xf32>
  %a3_p0 = stablehlo.multiply %a3_i0, %a3_c0 : tensor<3x37x70xf32>
  %a3_p1 = stablehlo.multiply %a3_i1, %a3_c1 : tensor<3x37x70xf32>
  %a3_s = stablehlo.add %a3_p0, %a3_p1 : tensor<3x37x70xf32>
  %a3_s2 = stablehlo.add %a3_s, %a3_ib : tensor<3x37x70xf32>
  %a3_r = stablehlo.remainder %a3_s2, %a3_cm : tensor<3x37x70xf32>
  %a3 = stablehlo.subtract %a3_r, %a3_co : tensor<3x37x70xf32>
  %b3_i0 = stablehlo.iota dim = 1 : tensor<3x70x45xf32>
  %b3_i1 = stablehlo.iota dim = 2 : tensor<3x70x45xf32>
  %b3_ib = stablehlo.iota dim = 0 : tensor<3x70x45xf32>
  %b3_c0 = stablehlo.constant dense<5.0> : tensor<3x70x45xf32>
  %b3_c1 = stablehlo.constant dense<2.0> : tensor<3x70x45xf32>
  %b3_cm = stablehlo.constant dense<13.0> : tensor<3x70x45xf32>
  %b3_co = stablehlo.constant dense<6.0> : tensor<3x70x45xf32>
  %b3_p0 = stablehlo.multiply %b3_i0, %b3_c0 : tensor<3x70x45xf32>
  %b3_p1 = stablehlo.multiply %b3_i1, %b3_c1 : tensor<3x70x45xf32>
  %b3_s = stablehlo.add %b3_p0, %b3_p1 : tensor<3x70x45xf32>
  %b3_s2 = stablehlo.add %b3_s, %b3_ib : tensor<3x70x45xf32>
  %b3_r = stablehlo.remainder %b3_s2, %b3_cm : tensor<3x70x45xf32>
  %b3 = stablehlo.subtract %b3_r, %b3_co : tensor<3x70x45xf32>
  %d3 = stablehlo.dot_general %a3, %b3, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<3x37x70xf32>, tensor<3x70x45xf32>) -> tensor<3x37x45xf32>
  %ba3 = stablehlo.broadcast_in_dim %a3, dims = [0, 1, 3] : (tensor<3x37x70xf32>) -> tensor<3x37x45x70xf32>
  %bb3 = stablehlo.broadcast_in_dim %b3, dims = [0, 3, 2] : (tensor<3x70x45xf32>) -> tensor<3x37x45x70xf32>
  %m3 = stablehlo.multiply %ba3, %bb3 : tensor<3x37x45x70xf32>
  %z3 = stablehlo.constant dense<0.0> : tensor<f32>
  %ref3 = stablehlo.reduce(%m3 init: %z3) applies stablehlo.add across dimensions = [3] : (tensor<3x37x45x70xf32>, tensor<f32>) -> tensor<3x37x45xf32>
  %eq3 = stablehlo.compare EQ, %d3, %ref3 : (tensor<3x37x45xf32>, tensor<3x37x45xf32>) -> tensor<3x37x45xi1>
  %t3 = stablehlo.constant dense<true> : tensor<i1>
  %ok3 = stablehlo.reduce(%eq3 init: %t3) applies stablehlo.and across dimensions = [0, 1, 2] : (tensor<3x37x45xi1>, tensor<i1>) -> tensor<i1>
  %a4_i0 = stablehlo.iota dim = 0 : tensor<37x300xf64>
  %a4_i1 = stablehlo.iota dim = 1 : tensor<37x300xf64>
  %a4_c0 = stablehlo.constant dense<7.0> : tensor<37x300xf64>
  %a4_c1 = stablehlo.constant dense<3.0> : tensor<37x300xf64>
  %a4_cm = stablehlo.constant dense<11.0> : tensor<37x300xf64>
  %a4_co = stablehlo.constant dense<5.0> : tensor<37x300xf64>
  %a4_p0 = stablehlo.multiply %a4_i0, %a4_c0 : tensor<37x300xf64>
  %a4_p1 = stablehlo.multiply %a4_i1, %a4_c1 : tensor<37x300xf64>
  %a4_s = stablehlo.add %a4_p0, %a4_p1 : tensor<37x300xf64>
  %a4_r = stablehlo.remainder %a4_s, %a4_cm : tensor<37x300xf64>
  %a4 = stablehlo.subtract %a4_r, %a4_co : tensor<37x300xf64>
  %b4_i0 = stablehlo.iota dim = 0 : tensor<300x45xf64>
  %b4_i1 = stablehlo.iota dim = 1 : tensor<300x45xf64>
  %b4_c0 = stablehlo.constant dense<5.0> : tensor<300x45xf64>
  %b4_c1 = stablehlo.constant dense<2.0> : tensor<300x45xf64>
  %b4_cm = stablehlo.constant dense<13.0> : tensor<300x45xf64>
  %b4_co = stablehlo.constant dense<6.0> : tensor<300x45xf64>
  %b4_p0 = stablehlo.multiply %b4_i0, %b4_c0 : tensor<300x45xf64>
  %b4_p1 = stablehlo.multiply %b4_i1, %b4_c1 : tensor<300x45xf64>
  %b4_s = stablehlo.add %b4_p0, %b4_p1 : tensor<300x45xf64>
  %b4_r = stablehlo.remainder %b4_s, %b4_cm : tensor<300x45xf64>
  %b4 = stablehlo.subtract %b4_r, %b4_co : tensor<300x45xf64>
  %d4 = stablehlo.dot_general %a4, %b4, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<37x300xf64>, tensor<300x45xf64>) -> tensor<37x45xf64>
  %ba4 = stablehlo.broadcast_in_dim %a4, dims = [0, 2] : (tensor<37x300xf64>) -> tensor<37x45x300xf64>
  %bb4 = stablehlo.broadcast_in_dim %b4, dims = [2, 1] : (tensor<300x45xf64>) -> tensor<37x45x300xf64>
  %m4 = stablehlo.multiply %ba4, %bb4 : tensor<37x45x300xf64>
  %z4 = stablehlo.constant dense<0.0> : tensor<f64>
  %ref4 = stablehlo.reduce(%m4 init: %z4) applies stablehlo.add across dimensions = [2] : (tensor<37x45x300xf64>, tensor<f64>) -> tensor<37x45xf64>
  %eq4 = stablehlo.compare EQ, %d4, %ref4 : (tensor<37x45xf64>, tensor<37x45xf64>) -> tensor<37x45xi1>
  %t4 = stablehlo.constant dense<true> : tensor<i1>
  %ok4 = stablehlo.reduce(%eq4 init: %t4) applies stablehlo.and across dimensions = [0, 1] : (tensor<37x45xi1>, tensor<i1>) -> tensor<i1>
  %a5_i0 = stablehlo.iota dim = 0 : tensor<600x260xf32>
  %a5_i1 = stablehlo.iota dim = 1 : tensor<600x260xf32>
  %a5_c0 = stablehlo.constant dense<7.0> : tensor<600x260xf32>
  %a5_c1 = stablehlo.constant dense<3.0> : tensor<600x260xf32>
  %a5_cm = stablehlo.constant dense<11.0> : tensor<600x260xf32>
  %a5_co = stablehlo.constant dense<5.0> : tensor<600x260xf32>
  %a5_p0 = stablehlo.multiply %a5_i0, %a5_c0 : tensor<600x260xf32>
  %a5_p1 = stablehlo.multiply %a5_i1, %a5_c1 : tensor<600x260xf32>
  %a5_s = stablehlo.add %a5_p0, %a5_p1 : tensor<600x260xf32>
  %a5_r = stablehlo.remainder %a5_s, %a5_cm : tensor<600x260xf32>
  %a5 = stablehlo.subtract %a5_r, %a5_co : tensor<600x260xf32>
  %b5_i0 = stablehlo.iota dim = 0 : tensor<260x130xf32>
  %b5_i1 = stablehlo.iota dim = 1 : tensor<260x130xf32>
  %b5_c0 = stablehlo.constant dense<5.0> : tensor<260x130xf32>
  %b5_c1 = stablehlo.constant dense<2.0> : tensor<260x130xf32>
  %b5_cm = stablehlo.constant dense<13.0> : tensor<260x130xf32>
  %b5_co = stablehlo.constant dense<6.0> : tensor<260x130xf32>
  %b5_p0 = stablehlo.multiply %b5_i0, %b5_c0 : tensor<260x130xf32>
  %b5_p1 = stablehlo.multiply %b5_i1, %b5_c1 : tensor<260x130xf32>
  %b5_s = stablehlo.add %b5_p0, %b5_p1 : tensor<260x130xf32>
  %b5_r = stablehlo.remainder %b5_s, %b5_cm : tensor<260x130xf32>
  %b5 = stablehlo.subtract %b5_r, %b5_co : tensor<260x130xf32>
  %d5 = stablehlo.dot_general %a5, %b5, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<600x260xf32>, tensor<260x130xf32>) -> tensor<600x130xf32>
  %ba5 = stablehlo.broadcast_in_dim %a5, dims = [0, 2] : (tensor<600x260xf32>) -> tensor<600x130x260xf32>
  %bb5 = stablehlo.broadcast_in_dim %b5, dims = [2, 1] : (tensor<260x130xf32>) -> tensor<600x130x260xf32>
  %m5 = stablehlo.multiply %ba5, %bb5 : tensor<600x130x260xf32>
  %z5 = stablehlo.constant dense<0.0> : tensor<f32>
  %ref5 = stablehlo.reduce(%m5 init: %z5) applies stablehlo.add across dimensions = [2] : (tensor<600x130x260xf32>, tensor<f32>) -> tensor<600x130xf32>
  %eq5 = stablehlo.compare EQ, %d5, %ref5 : (tensor<600x130xf32>, tensor<600x130xf32>) -> tensor<600x130xi1>
  %t5 = stablehlo.constant dense<true> : tensor<i1>
  %ok5 = stablehlo.reduce(%eq5 init: %t5) applies stablehlo.and across dimensions = [0, 1] : (tensor<600x130xi1>, tensor<i1>) -> tensor<i1>
  %a6_i0 = stablehlo.iota dim = 0 : tensor<0x30xf32>
  %a6_i1 = stablehlo.iota dim = 1 : tensor<0x30xf32>
  %a6_c0 = stablehlo.constant dense<7.0> : tensor<0x30xf32>
  %a6_c1 = stablehlo.constant dense<3.0> : tensor<0x30xf32>
  %a6_cm = stablehlo.constant dense<11.0> : tensor<0x30xf32>
  %a6_co = stablehlo.constant dense<5.0> : tensor<0x30xf32>
  %a6_p0 = stablehlo.multiply %a6_i0, %a6_c0 : tensor<0x30xf32>
  %a6_p1 = stablehlo.multiply %a6_i1, %a6_c1 : tensor<0x30xf32>
  %a6_s = stablehlo.add %a6_p0, %a6_p1 : tensor<0x30xf32>
  %a6_r = stablehlo.remainder %a6_s, %a6_cm : tensor<0x30xf32>
  %a6 = stablehlo.subtract %a6_r, %a6_co : tensor<0x30xf32>
  %b6_i0 = stablehlo.iota dim = 0 : tensor<30x5xf32>
  %b6_i1 = stablehlo.iota dim = 1 : tensor<30x5xf32>
  %b6_c0 = stablehlo.constant dense<5.0> : tensor<30x5xf32>
  %b6_c1 = stablehlo.constant dense<2.0> : tensor<30x5xf32>
  %b6_cm = stablehlo.constant dense<13.0> : tensor<30x5xf32>
  %b6_co = stablehlo.constant dense<6.0> : tensor<30x5xf32>
  %b6_p0 = stablehlo.multiply %b6_i0, %b6_c0 : tensor<30x5xf32>
  %b6_p1 = stablehlo.multiply %b6_i1, %b6_c1 : tensor<30x5xf32>
  %b6_s = stablehlo.add %b6_p0, %b6_p1 : tensor<30x5xf32>
  %b6_r = stablehlo.remainder %b6_s, %b6_cm : tensor<30x5xf32>
  %b6 = stablehlo.subtract %b6_r, %b6_co : tensor<30x5xf32>
  %d6 = stablehlo.dot_general %a6, %b6, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<0x30xf32>, tensor<30x5xf32>) -> tensor<0x5xf32>
  %ba6 = stablehlo.broadcast_in_dim %a6, dims = [0, 2] : (tensor<0x30xf32>) -> tensor<0x5x30xf32>
  %bb6 = stablehlo.broadcast_in_dim %b6, dims = [2, 1] : (tensor<30x5xf32>) -> tensor<0x5x30xf32>
  %m6 = stablehlo.multiply %ba6, %bb6 : tensor<0x5x30xf32>
  %z6 = stablehlo.constant dense<0.0> : tensor<f32>
  %ref6 = stablehlo.reduce(%m6 init: %z6) applies stablehlo.add across dimensions = [2] : (tensor<0x5x30xf32>, tensor<f32>) -> tensor<0x5xf32>
  %eq6 = stablehlo.compare EQ, %d6, %ref6 : (tensor<0x5xf32>, tensor<0x5xf32>) -> tensor<0x5xi1>
  %t6 = stablehlo.constant dense<true> : tensor<i1>
  %ok6 = stablehlo.reduce(%eq6 init: %t6) applies stablehlo.and across dimensions = [0, 1] : (tensor<0x5xi1>, tensor<i1>) -> tensor<i1>
  %a7_i0 = stablehlo.iota dim = 0 : tensor<9x0xf32>
  %a7_i1 = stablehlo.iota dim = 1 : tensor<9x0xf32>
  %a7_c0 = stablehlo.constant dense<7.0> : tensor<9x0xf32>
  %a7_c1 = stablehlo.constant dense<3.0> : tensor<9x0xf32>
  %a7_cm = stablehlo.constant dense<11.0> : tensor<9x0xf32>
  %a7_co = stablehlo.constant dense<5.0> : tensor<9x0xf32>
  %a7_p0 = stablehlo.multiply %a7_i0, %a7_c0 : tensor<9x0xf32>
  %a7_p1 = stablehlo.multiply %a7_i1, %a7_c1 : tensor<9x0xf32>
  %a7_s = stablehlo.add %a7_p0, %a7_p1 : tensor<9x0xf32>
  %a7_r = stablehlo.remainder %a7_s, %a7_cm : tensor<9x0xf32>
  %a7 = stablehlo.subtract %a7_r, %a7_co : tensor<9x0xf32>
  %b7_i0 = stablehlo.iota dim = 0 : tensor<0x5xf32>
  %b7_i1 = stablehlo.iota dim = 1 : tensor<0x5xf32>
  %b7_c0 = stablehlo.constant dense<5.0> : tensor<0x5xf32>
  %b7_c1 = stablehlo.constant dense<2.0> : tensor<0x5xf32>
  %b7_cm = stablehlo.constant dense<13.0> : tensor<0x5xf32>
  %b7_co = stablehlo.constant dense<6.0> : tensor<0x5xf32>
  %b7_p0 = stablehlo.multiply %b7_i0, %b7_c0 : tensor<0x5xf32>
  %b7_p1 = stablehlo.multiply %b7_i1, %b7_c1 : tensor<0x5xf32>
  %b7_s = stablehlo.add %b7_p0, %b7_p1 : tensor<0x5xf32>
  %b7_r = stablehlo.remainder %b7_s, %b7_cm : tensor<0x5xf32>
  %b7 = stablehlo.subtract %b7_r, %b7_co : tensor<0x5xf32>
  %d7 = stablehlo.dot_general %a7, %b7, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<9x0xf32>, tensor<0x5xf32>) -> tensor<9x5xf32>
  %ba7 = stablehlo.broadcast_in_dim %a7, dims = [0, 2] : (tensor<9x0xf32>) -> tensor<9x5x0xf32>
  %bb7 = stablehlo.broadcast_in_dim %b7, dims = [2, 1] : (tensor<0x5xf32>) -> tensor<9x5x0xf32>
  %m7 = stablehlo.multiply %ba7, %bb7 : tensor<9x5x0xf32>
  %z7 = stablehlo.constant dense<0.0> : tensor<f32>
  %ref7 = stablehlo.reduce(%m7 init: %z7) applies stablehlo.add across dimensions = [2] : (tensor<9x5x0xf32>, tensor<f32>) -> tensor<9x5xf32>
  %eq7 = stablehlo.compare EQ, %d7, %ref7 : (tensor<9x5xf32>, tensor<9x5xf32>) -> tensor<9x5xi1>
  %t7 = stablehlo.constant dense<true> : tensor<i1>
  %ok7 = stablehlo.reduce(%eq7 init: %t7) applies stablehlo.and across dimensions = [0, 1] : (tensor<9x5xi1>, tensor<i1>) -> tensor<i1>
  %a8_i0 = stablehlo.iota dim = 0 : tensor<64xf32>
  %a8_i1 = stablehlo.iota dim = 0 : tensor<64xf32>
  %a8_c0 = stablehlo.constant dense<7.0> : tensor<64xf32>
  %a8_c1 = stablehlo.constant dense<3.0> : tensor<64xf32>
  %a8_cm = stablehlo.constant dense<11.0> : tensor<64xf32>
  %a8_co = stablehlo.constant dense<5.0> : tensor<64xf32>
  %a8_p0 = stablehlo.multiply %a8_i0, %a8_c0 : tensor<64xf32>
  %a8_p1 = stablehlo.multiply %a8_i1, %a8_c1 : tensor<64xf32>
  %a8_s = stablehlo.add %a8_p0, %a8_p1 : tensor<64xf32>
  %a8_r = stablehlo.remainder %a8_s, %a8_cm : tensor<64xf32>
  %a8 = stablehlo.subtract %a8_r, %a8_co : tensor<64xf32>
  %b8_i0 = stablehlo.iota dim = 0 : tensor<64x70xf32>
  %b8_i1 = stablehlo.iota dim = 1 : tensor<64x70xf32>
  %b8_c0 = stablehlo.constant dense<5.0> : tensor<64x70xf32>
  %b8_c1 = stablehlo.constant dense<2.0> : tensor<64x70xf32>
  %b8_cm = stablehlo.constant dense<13.0> : tensor<64x70xf32>
  %b8_co = stablehlo.constant dense<6.0> : tensor<64x70xf32>
  %b8_p0 = stablehlo.multiply %b8_i0, %b8_c0 : tensor<64x70xf32>
  %b8_p1 = stablehlo.multiply %b8_i1, %b8_c1 : tensor<64x70xf32>
  %b8_s = stablehlo.add %b8_p0, %b8_p1 : tensor<64x70xf32>
  %b8_r = stablehlo.remainder %b8_s, %b8_cm : tensor<64x70xf32>
  %b8 = stablehlo.subtract %b8_r, %b8_co : tensor<64x70xf32>
  %d8 = stablehlo.dot_general %a8, %b8, batching_dims = [] x [], contracting_dims = [0] x [0] : (tensor<64xf32>, tensor<64x70xf32>) -> tensor<70xf32>
  %ba8 = stablehlo.broadcast_in_dim %a8, dims = [1] : (tensor<64xf32>) -> tensor<70x64xf32>
  %bb8 = stablehlo.broadcast_in_dim %b8, dims = [1, 0] : (tensor<64x70xf32>) -> tensor<70x64xf32>
  %m8 = stablehlo.multiply %ba8, %bb8 : tensor<70x64xf32>
  %z8 = stablehlo.constant dense<0.0> : tensor<f32>
  %ref8 = stablehlo.reduce(%m8 init: %z8) applies stablehlo.add across dimensions = [1] : (tensor<70x64xf32>, tensor<f32>) -> tensor<70xf32>
  %eq8 = stablehlo.compare EQ, %d8, %ref8 : (tensor<70xf32>, tensor<70xf32>) -> tensor<70xi1>
  %t8 = stablehlo.constant dense<true> : tensor<i1>
  %ok8 = stablehlo.reduce(%eq8 init: %t8) applies stablehlo.and across dimensions = [0] : (tensor<70xi1>, tensor<i1>) -> tensor<i1>
  %a9_i0 = stablehlo.iota dim = 0 : tensor<150x400xf32>
  %a9_i1 = stablehlo.iota dim = 1 : tensor<150x400xf32>
  %a9_c0 = stablehlo.constant dense<7.0> : tensor<150x400xf32>
  %a9_c1 = stablehlo.constant dense<3.0> : tensor<150x400xf32>
  %a9_cm = stablehlo.constant dense<11.0> : tensor<150x400xf32>
  %a9_co = stablehlo.constant dense<5.0> : tensor<150x400xf32>
  %a9_p0 = stablehlo.multiply %a9_i0, %a9_c0 : tensor<150x400xf32>
  %a9_p1 = stablehlo.multiply %a9_i1, %a9_c1 : tensor<150x400xf32>
  %a9_s = stablehlo.add %a9_p0, %a9_p1 : tensor<150x400xf32>
  %a9_r = stablehlo.remainder %a9_s, %a9_cm : tensor<150x400xf32>
  %a9 = stablehlo.subtract %a9_r, %a9_co : tensor<150x400xf32>
  %b9_i0 = stablehlo.iota dim = 0 : tensor<150x70xf32>
  %b9_i1 = stablehlo.iota dim = 1 : tensor<150x70xf32>
  %b9_c0 = stablehlo.constant dense<5.0> : tensor<150x70xf32>
  %b9_c1 = stablehlo.constant dense<2.0> : tensor<150x70xf32>
  %b9_cm = stablehlo.constant dense<13.0> : tensor<150x70xf32>
  %b9_co = stablehlo.constant dense<6.0> : tensor<150x70xf32>
  %b9_p0 = stablehlo.multiply %b9_i0, %b9_c0 : tensor<150x70xf32>
  %b9_p1 = stablehlo.multiply %b9_i1, %b9_c1 : tensor<150x70xf32>
  %b9_s = stablehlo.add %b9_p0, %b9_p1 : tensor<150x70xf32>
  %b9_r = stablehlo.remainder %b9_s, %b9_cm : tensor<150x70xf32>
  %b9 = stablehlo.subtract %b9_r, %b9_co : tensor<150x70xf32>
  %d9 = stablehlo.dot_general %a9, %b9, batching_dims = [] x [], contracting_dims = [0] x [0] : (tensor<150x400xf32>, tensor<150x70xf32>) -> tensor<400x70xf32>
  %ba9 = stablehlo.broadcast_in_dim %a9, dims = [2, 0] : (tensor<150x400xf32>) -> tensor<400x70x150xf32>
  %bb9 = stablehlo.broadcast_in_dim %b9, dims = [2, 1] : (tensor<150x70xf32>) -> tensor<400x70x150xf32>
  %m9 = stablehlo.multiply %ba9, %bb9 : tensor<400x70x150xf32>
  %z9 = stablehlo.constant dense<0.0> : tensor<f32>
  %ref9 = stablehlo.reduce(%m9 init: %z9) applies stablehlo.add across dimensions = [2] : (tensor<400x70x150xf32>, tensor<f32>) -> tensor<400x70xf32>
  %eq9 = stablehlo.compare EQ, %d9, %ref9 : (tensor<400x70xf32>, tensor<400x70xf32>) -> tensor<400x70xi1>
  %t9 = stablehlo.constant dense<true> : tensor<i1>
  %ok9 = stablehlo.reduce(%eq9 init: %t9) applies stablehlo.and across dimensions = [0, 1] : (tensor<400x70xi1>, tensor<i1>) -> tensor<i1>
  %a10_i0 = stablehlo.iota dim = 2 : tensor<5x2x40x30xf64>
  %a10_i1 = stablehlo.iota dim = 3 : tensor<5x2x40x30xf64>
  %a10_c0 = stablehlo.constant dense<7.0> : tensor<5x2x40x30xf64>
  %a10_c1 = stablehlo.constant dense<3.0> : tensor<5x2x40x30xf64>
  %a10_cm = stablehlo.constant dense<11.0> : tensor<5x2x40x30xf64>
  %a10_co = stablehlo.constant dense<5.0> : tensor<5x2x40x30xf64>
  %a10_p0 = stablehlo.multiply %a10_i0, %a10_c0 : tensor<5x2x40x30xf64>
  %a10_p1 = stablehlo.multiply %a10_i1, %a10_c1 : tensor<5x2x40x30xf64>
  %a10_s = stablehlo.add %a10_p0, %a10_p1 : tensor<5x2x40x30xf64>
  %a10_r = stablehlo.remainder %a10_s, %a10_cm : tensor<5x2x40x30xf64>
  %a10 = stablehlo.subtract %a10_r, %a10_co : tensor<5x2x40x30xf64>
  %b10_i0 = stablehlo.iota dim = 2 : tensor<2x30x5x9xf64>
  %b10_i1 = stablehlo.iota dim = 3 : tensor<2x30x5x9xf64>
  %b10_c0 = stablehlo.constant dense<5.0> : tensor<2x30x5x9xf64>
  %b10_c1 = stablehlo.constant dense<2.0> : tensor<2x30x5x9xf64>
  %b10_cm = stablehlo.constant dense<13.0> : tensor<2x30x5x9xf64>
  %b10_co = stablehlo.constant dense<6.0> : tensor<2x30x5x9xf64>
  %b10_p0 = stablehlo.multiply %b10_i0, %b10_c0 : tensor<2x30x5x9xf64>
  %b10_p1 = stablehlo.multiply %b10_i1, %b10_c1 : tensor<2x30x5x9xf64>
  %b10_s = stablehlo.add %b10_p0, %b10_p1 : tensor<2x30x5x9xf64>
  %b10_r = stablehlo.remainder %b10_s, %b10_cm : tensor<2x30x5x9xf64>
  %b10 = stablehlo.subtract %b10_r, %b10_co : tensor<2x30x5x9xf64>
  %d10 = stablehlo.dot_general %a10, %b10, batching_dims = [1, 0] x [0, 2], contracting_dims = [3] x [1] : (tensor<5x2x40x30xf64>, tensor<2x30x5x9xf64>) -> tensor<2x5x40x9xf64>
  %ba10 = stablehlo.broadcast_in_dim %a10, dims = [1, 0, 2, 4] : (tensor<5x2x40x30xf64>) -> tensor<2x5x40x9x30xf64>
  %bb10 = stablehlo.broadcast_in_dim %b10, dims = [0, 4, 1, 3] : (tensor<2x30x5x9xf64>) -> tensor<2x5x40x9x30xf64>
  %m10 = stablehlo.multiply %ba10, %bb10 : tensor<2x5x40x9x30xf64>
  %z10 = stablehlo.constant dense<0.0> : tensor<f64>
  %ref10 = stablehlo.reduce(%m10 init: %z10) applies stablehlo.add across dimensions = [4] : (tensor<2x5x40x9x30xf64>, tensor<f64>) -> tensor<2x5x40x9xf64>
  %eq10 = stablehlo.compare EQ, %d10, %ref10 : (tensor<2x5x40x9xf64>, tensor<2x5x40x9xf64>) -> tensor<2x5x40x9xi1>
  %t10 = stablehlo.constant dense<true> : tensor<i1>
  %ok10 = stablehlo.reduce(%eq10 init: %t10) applies stablehlo.and across dimensions = [0, 1, 2, 3] : (tensor<2x5x40x9xi1>, tensor<i1>) -> tensor<i1>
  return %ok0, %ok1, %ok2, %ok3, %ok4, %ok5, %ok6, %ok7, %ok8, %ok9, %ok10 : tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>
}
