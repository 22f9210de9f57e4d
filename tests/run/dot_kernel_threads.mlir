// The blocked dot_general kernel split across two threads: over the
// batch, over rows and over columns (result dimension 0 of each).
// Integer-valued inputs make every sum exact (see dot_kernel.mlir).
// RUN-ARGS: --threads=2
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
func.func @main() -> (tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>) {
  %a0_i0 = stablehlo.iota dim = 1 : tensor<4x200x100xf32>
  %a0_i1 = stablehlo.iota dim = 2 : tensor<4x200x100xf32>
  %a0_ib = stablehlo.iota dim = 0 : tensor<4x200x100xf32>
  %a0_c0 = stablehlo.constant dense<7.0> : tensor<4x200x100xf32>
  %a0_c1 = stablehlo.constant dense<3.0> : tensor<4x200x100xf32>
  %a0_cm = stablehlo.constant dense<11.0> : tensor<4x200x100xf32>
  %a0_co = stablehlo.constant dense<5.0> : tensor<4x200x100xf32>
  %a0_p0 = stablehlo.multiply %a0_i0, %a0_c0 : tensor<4x200x100xf32>
  %a0_p1 = stablehlo.multiply %a0_i1, %a0_c1 : tensor<4x200x100xf32>
  %a0_s = stablehlo.add %a0_p0, %a0_p1 : tensor<4x200x100xf32>
  %a0_s2 = stablehlo.add %a0_s, %a0_ib : tensor<4x200x100xf32>
  %a0_r = stablehlo.remainder %a0_s2, %a0_cm : tensor<4x200x100xf32>
  %a0 = stablehlo.subtract %a0_r, %a0_co : tensor<4x200x100xf32>
  %b0_i0 = stablehlo.iota dim = 1 : tensor<4x100x90xf32>
  %b0_i1 = stablehlo.iota dim = 2 : tensor<4x100x90xf32>
  %b0_ib = stablehlo.iota dim = 0 : tensor<4x100x90xf32>
  %b0_c0 = stablehlo.constant dense<5.0> : tensor<4x100x90xf32>
  %b0_c1 = stablehlo.constant dense<2.0> : tensor<4x100x90xf32>
  %b0_cm = stablehlo.constant dense<13.0> : tensor<4x100x90xf32>
  %b0_co = stablehlo.constant dense<6.0> : tensor<4x100x90xf32>
  %b0_p0 = stablehlo.multiply %b0_i0, %b0_c0 : tensor<4x100x90xf32>
  %b0_p1 = stablehlo.multiply %b0_i1, %b0_c1 : tensor<4x100x90xf32>
  %b0_s = stablehlo.add %b0_p0, %b0_p1 : tensor<4x100x90xf32>
  %b0_s2 = stablehlo.add %b0_s, %b0_ib : tensor<4x100x90xf32>
  %b0_r = stablehlo.remainder %b0_s2, %b0_cm : tensor<4x100x90xf32>
  %b0 = stablehlo.subtract %b0_r, %b0_co : tensor<4x100x90xf32>
  %d0 = stablehlo.dot_general %a0, %b0, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x200x100xf32>, tensor<4x100x90xf32>) -> tensor<4x200x90xf32>
  %ba0 = stablehlo.broadcast_in_dim %a0, dims = [0, 1, 3] : (tensor<4x200x100xf32>) -> tensor<4x200x90x100xf32>
  %bb0 = stablehlo.broadcast_in_dim %b0, dims = [0, 3, 2] : (tensor<4x100x90xf32>) -> tensor<4x200x90x100xf32>
  %m0 = stablehlo.multiply %ba0, %bb0 : tensor<4x200x90x100xf32>
  %z0 = stablehlo.constant dense<0.0> : tensor<f32>
  %ref0 = stablehlo.reduce(%m0 init: %z0) applies stablehlo.add across dimensions = [3] : (tensor<4x200x90x100xf32>, tensor<f32>) -> tensor<4x200x90xf32>
  %eq0 = stablehlo.compare EQ, %d0, %ref0 : (tensor<4x200x90xf32>, tensor<4x200x90xf32>) -> tensor<4x200x90xi1>
  %t0 = stablehlo.constant dense<true> : tensor<i1>
  %ok0 = stablehlo.reduce(%eq0 init: %t0) applies stablehlo.and across dimensions = [0, 1, 2] : (tensor<4x200x90xi1>, tensor<i1>) -> tensor<i1>
  %a1_i0 = stablehlo.iota dim = 0 : tensor<500x70xf32>
  %a1_i1 = stablehlo.iota dim = 1 : tensor<500x70xf32>
  %a1_c0 = stablehlo.constant dense<7.0> : tensor<500x70xf32>
  %a1_c1 = stablehlo.constant dense<3.0> : tensor<500x70xf32>
  %a1_cm = stablehlo.constant dense<11.0> : tensor<500x70xf32>
  %a1_co = stablehlo.constant dense<5.0> : tensor<500x70xf32>
  %a1_p0 = stablehlo.multiply %a1_i0, %a1_c0 : tensor<500x70xf32>
  %a1_p1 = stablehlo.multiply %a1_i1, %a1_c1 : tensor<500x70xf32>
  %a1_s = stablehlo.add %a1_p0, %a1_p1 : tensor<500x70xf32>
  %a1_r = stablehlo.remainder %a1_s, %a1_cm : tensor<500x70xf32>
  %a1 = stablehlo.subtract %a1_r, %a1_co : tensor<500x70xf32>
  %b1_i0 = stablehlo.iota dim = 0 : tensor<70x130xf32>
  %b1_i1 = stablehlo.iota dim = 1 : tensor<70x130xf32>
  %b1_c0 = stablehlo.constant dense<5.0> : tensor<70x130xf32>
  %b1_c1 = stablehlo.constant dense<2.0> : tensor<70x130xf32>
  %b1_cm = stablehlo.constant dense<13.0> : tensor<70x130xf32>
  %b1_co = stablehlo.constant dense<6.0> : tensor<70x130xf32>
  %b1_p0 = stablehlo.multiply %b1_i0, %b1_c0 : tensor<70x130xf32>
  %b1_p1 = stablehlo.multiply %b1_i1, %b1_c1 : tensor<70x130xf32>
  %b1_s = stablehlo.add %b1_p0, %b1_p1 : tensor<70x130xf32>
  %b1_r = stablehlo.remainder %b1_s, %b1_cm : tensor<70x130xf32>
  %b1 = stablehlo.subtract %b1_r, %b1_co : tensor<70x130xf32>
  %d1 = stablehlo.dot_general %a1, %b1, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<500x70xf32>, tensor<70x130xf32>) -> tensor<500x130xf32>
  %ba1 = stablehlo.broadcast_in_dim %a1, dims = [0, 2] : (tensor<500x70xf32>) -> tensor<500x130x70xf32>
  %bb1 = stablehlo.broadcast_in_dim %b1, dims = [2, 1] : (tensor<70x130xf32>) -> tensor<500x130x70xf32>
  %m1 = stablehlo.multiply %ba1, %bb1 : tensor<500x130x70xf32>
  %z1 = stablehlo.constant dense<0.0> : tensor<f32>
  %ref1 = stablehlo.reduce(%m1 init: %z1) applies stablehlo.add across dimensions = [2] : (tensor<500x130x70xf32>, tensor<f32>) -> tensor<500x130xf32>
  %eq1 = stablehlo.compare EQ, %d1, %ref1 : (tensor<500x130xf32>, tensor<500x130xf32>) -> tensor<500x130xi1>
  %t1 = stablehlo.constant dense<true> : tensor<i1>
  %ok1 = stablehlo.reduce(%eq1 init: %t1) applies stablehlo.and across dimensions = [0, 1] : (tensor<500x130xi1>, tensor<i1>) -> tensor<i1>
  %a2_i0 = stablehlo.iota dim = 0 : tensor<64xf32>
  %a2_i1 = stablehlo.iota dim = 0 : tensor<64xf32>
  %a2_c0 = stablehlo.constant dense<7.0> : tensor<64xf32>
  %a2_c1 = stablehlo.constant dense<3.0> : tensor<64xf32>
  %a2_cm = stablehlo.constant dense<11.0> : tensor<64xf32>
  %a2_co = stablehlo.constant dense<5.0> : tensor<64xf32>
  %a2_p0 = stablehlo.multiply %a2_i0, %a2_c0 : tensor<64xf32>
  %a2_p1 = stablehlo.multiply %a2_i1, %a2_c1 : tensor<64xf32>
  %a2_s = stablehlo.add %a2_p0, %a2_p1 : tensor<64xf32>
  %a2_r = stablehlo.remainder %a2_s, %a2_cm : tensor<64xf32>
  %a2 = stablehlo.subtract %a2_r, %a2_co : tensor<64xf32>
  %b2_i0 = stablehlo.iota dim = 0 : tensor<64x40000xf32>
  %b2_i1 = stablehlo.iota dim = 1 : tensor<64x40000xf32>
  %b2_c0 = stablehlo.constant dense<5.0> : tensor<64x40000xf32>
  %b2_c1 = stablehlo.constant dense<2.0> : tensor<64x40000xf32>
  %b2_cm = stablehlo.constant dense<13.0> : tensor<64x40000xf32>
  %b2_co = stablehlo.constant dense<6.0> : tensor<64x40000xf32>
  %b2_p0 = stablehlo.multiply %b2_i0, %b2_c0 : tensor<64x40000xf32>
  %b2_p1 = stablehlo.multiply %b2_i1, %b2_c1 : tensor<64x40000xf32>
  %b2_s = stablehlo.add %b2_p0, %b2_p1 : tensor<64x40000xf32>
  %b2_r = stablehlo.remainder %b2_s, %b2_cm : tensor<64x40000xf32>
  %b2 = stablehlo.subtract %b2_r, %b2_co : tensor<64x40000xf32>
  %d2 = stablehlo.dot_general %a2, %b2, batching_dims = [] x [], contracting_dims = [0] x [0] : (tensor<64xf32>, tensor<64x40000xf32>) -> tensor<40000xf32>
  %ba2 = stablehlo.broadcast_in_dim %a2, dims = [1] : (tensor<64xf32>) -> tensor<40000x64xf32>
  %bb2 = stablehlo.broadcast_in_dim %b2, dims = [1, 0] : (tensor<64x40000xf32>) -> tensor<40000x64xf32>
  %m2 = stablehlo.multiply %ba2, %bb2 : tensor<40000x64xf32>
  %z2 = stablehlo.constant dense<0.0> : tensor<f32>
  %ref2 = stablehlo.reduce(%m2 init: %z2) applies stablehlo.add across dimensions = [1] : (tensor<40000x64xf32>, tensor<f32>) -> tensor<40000xf32>
  %eq2 = stablehlo.compare EQ, %d2, %ref2 : (tensor<40000xf32>, tensor<40000xf32>) -> tensor<40000xi1>
  %t2 = stablehlo.constant dense<true> : tensor<i1>
  %ok2 = stablehlo.reduce(%eq2 init: %t2) applies stablehlo.and across dimensions = [0] : (tensor<40000xi1>, tensor<i1>) -> tensor<i1>
  %a3_i0 = stablehlo.iota dim = 0 : tensor<300x400xf32>
  %a3_i1 = stablehlo.iota dim = 1 : tensor<300x400xf32>
  %a3_c0 = stablehlo.constant dense<7.0> : tensor<300x400xf32>
  %a3_c1 = stablehlo.constant dense<3.0> : tensor<300x400xf32>
  %a3_cm = stablehlo.constant dense<11.0> : tensor<300x400xf32>
  %a3_co = stablehlo.constant dense<5.0> : tensor<300x400xf32>
  %a3_p0 = stablehlo.multiply %a3_i0, %a3_c0 : tensor<300x400xf32>
  %a3_p1 = stablehlo.multiply %a3_i1, %a3_c1 : tensor<300x400xf32>
  %a3_s = stablehlo.add %a3_p0, %a3_p1 : tensor<300x400xf32>
  %a3_r = stablehlo.remainder %a3_s, %a3_cm : tensor<300x400xf32>
  %a3 = stablehlo.subtract %a3_r, %a3_co : tensor<300x400xf32>
  %b3_i0 = stablehlo.iota dim = 0 : tensor<300x90xf32>
  %b3_i1 = stablehlo.iota dim = 1 : tensor<300x90xf32>
  %b3_c0 = stablehlo.constant dense<5.0> : tensor<300x90xf32>
  %b3_c1 = stablehlo.constant dense<2.0> : tensor<300x90xf32>
  %b3_cm = stablehlo.constant dense<13.0> : tensor<300x90xf32>
  %b3_co = stablehlo.constant dense<6.0> : tensor<300x90xf32>
  %b3_p0 = stablehlo.multiply %b3_i0, %b3_c0 : tensor<300x90xf32>
  %b3_p1 = stablehlo.multiply %b3_i1, %b3_c1 : tensor<300x90xf32>
  %b3_s = stablehlo.add %b3_p0, %b3_p1 : tensor<300x90xf32>
  %b3_r = stablehlo.remainder %b3_s, %b3_cm : tensor<300x90xf32>
  %b3 = stablehlo.subtract %b3_r, %b3_co : tensor<300x90xf32>
  %d3 = stablehlo.dot_general %a3, %b3, batching_dims = [] x [], contracting_dims = [0] x [0] : (tensor<300x400xf32>, tensor<300x90xf32>) -> tensor<400x90xf32>
  %ba3 = stablehlo.broadcast_in_dim %a3, dims = [2, 0] : (tensor<300x400xf32>) -> tensor<400x90x300xf32>
  %bb3 = stablehlo.broadcast_in_dim %b3, dims = [2, 1] : (tensor<300x90xf32>) -> tensor<400x90x300xf32>
  %m3 = stablehlo.multiply %ba3, %bb3 : tensor<400x90x300xf32>
  %z3 = stablehlo.constant dense<0.0> : tensor<f32>
  %ref3 = stablehlo.reduce(%m3 init: %z3) applies stablehlo.add across dimensions = [2] : (tensor<400x90x300xf32>, tensor<f32>) -> tensor<400x90xf32>
  %eq3 = stablehlo.compare EQ, %d3, %ref3 : (tensor<400x90xf32>, tensor<400x90xf32>) -> tensor<400x90xi1>
  %t3 = stablehlo.constant dense<true> : tensor<i1>
  %ok3 = stablehlo.reduce(%eq3 init: %t3) applies stablehlo.and across dimensions = [0, 1] : (tensor<400x90xi1>, tensor<i1>) -> tensor<i1>
  return %ok0, %ok1, %ok2, %ok3 : tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>
}
