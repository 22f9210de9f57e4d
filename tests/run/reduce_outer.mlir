// reduce over outer dimensions (accumulated in place in the result,
// codegen/reduce.c cg_kernel_reduce) against the same reduction on the
// transposed input, where the reduced dimensions are innermost (the
// elemental generator). Integer-valued data: exact. Two threads split
// the larger ones over columns and over rows.
// RUN-ARGS: --threads=2
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
// OUTPUT: i1=1
func.func @main() -> (tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>) {
  %x0_i0 = stablehlo.iota dim = 0 : tensor<300x70xf32>
  %x0_k0 = stablehlo.constant dense<3.0> : tensor<300x70xf32>
  %x0_p0 = stablehlo.multiply %x0_i0, %x0_k0 : tensor<300x70xf32>
  %x0_i1 = stablehlo.iota dim = 1 : tensor<300x70xf32>
  %x0_k1 = stablehlo.constant dense<5.0> : tensor<300x70xf32>
  %x0_p1 = stablehlo.multiply %x0_i1, %x0_k1 : tensor<300x70xf32>
  %x0_s0 = stablehlo.add %x0_p0, %x0_p1 : tensor<300x70xf32>
  %x0_m = stablehlo.constant dense<11.0> : tensor<300x70xf32>
  %x0_o = stablehlo.constant dense<5.0> : tensor<300x70xf32>
  %x0_r = stablehlo.remainder %x0_s0, %x0_m : tensor<300x70xf32>
  %x0 = stablehlo.subtract %x0_r, %x0_o : tensor<300x70xf32>
  %z0 = stablehlo.constant dense<0.0> : tensor<f32>
  %a0 = stablehlo.reduce(%x0 init: %z0) applies stablehlo.add across dimensions = [0] : (tensor<300x70xf32>, tensor<f32>) -> tensor<70xf32>
  %t0 = stablehlo.transpose %x0, dims = [1, 0] : (tensor<300x70xf32>) -> tensor<70x300xf32>
  %b0 = stablehlo.reduce(%t0 init: %z0) applies stablehlo.add across dimensions = [1] : (tensor<70x300xf32>, tensor<f32>) -> tensor<70xf32>
  %e0 = stablehlo.compare EQ, %a0, %b0 : (tensor<70xf32>, tensor<70xf32>) -> tensor<70xi1>
  %tr0 = stablehlo.constant dense<true> : tensor<i1>
  %ok0 = stablehlo.reduce(%e0 init: %tr0) applies stablehlo.and across dimensions = [0] : (tensor<70xi1>, tensor<i1>) -> tensor<i1>
  %x1_i0 = stablehlo.iota dim = 0 : tensor<5x7x9x33xf32>
  %x1_k0 = stablehlo.constant dense<3.0> : tensor<5x7x9x33xf32>
  %x1_p0 = stablehlo.multiply %x1_i0, %x1_k0 : tensor<5x7x9x33xf32>
  %x1_i1 = stablehlo.iota dim = 1 : tensor<5x7x9x33xf32>
  %x1_k1 = stablehlo.constant dense<5.0> : tensor<5x7x9x33xf32>
  %x1_p1 = stablehlo.multiply %x1_i1, %x1_k1 : tensor<5x7x9x33xf32>
  %x1_i2 = stablehlo.iota dim = 2 : tensor<5x7x9x33xf32>
  %x1_k2 = stablehlo.constant dense<7.0> : tensor<5x7x9x33xf32>
  %x1_p2 = stablehlo.multiply %x1_i2, %x1_k2 : tensor<5x7x9x33xf32>
  %x1_i3 = stablehlo.iota dim = 3 : tensor<5x7x9x33xf32>
  %x1_k3 = stablehlo.constant dense<2.0> : tensor<5x7x9x33xf32>
  %x1_p3 = stablehlo.multiply %x1_i3, %x1_k3 : tensor<5x7x9x33xf32>
  %x1_s0 = stablehlo.add %x1_p0, %x1_p1 : tensor<5x7x9x33xf32>
  %x1_s1 = stablehlo.add %x1_s0, %x1_p2 : tensor<5x7x9x33xf32>
  %x1_s2 = stablehlo.add %x1_s1, %x1_p3 : tensor<5x7x9x33xf32>
  %x1_m = stablehlo.constant dense<13.0> : tensor<5x7x9x33xf32>
  %x1_o = stablehlo.constant dense<6.0> : tensor<5x7x9x33xf32>
  %x1_r = stablehlo.remainder %x1_s2, %x1_m : tensor<5x7x9x33xf32>
  %x1 = stablehlo.subtract %x1_r, %x1_o : tensor<5x7x9x33xf32>
  %z1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %a1 = stablehlo.reduce(%x1 init: %z1) applies stablehlo.maximum across dimensions = [0, 2] : (tensor<5x7x9x33xf32>, tensor<f32>) -> tensor<7x33xf32>
  %t1 = stablehlo.transpose %x1, dims = [1, 3, 0, 2] : (tensor<5x7x9x33xf32>) -> tensor<7x33x5x9xf32>
  %b1 = stablehlo.reduce(%t1 init: %z1) applies stablehlo.maximum across dimensions = [2, 3] : (tensor<7x33x5x9xf32>, tensor<f32>) -> tensor<7x33xf32>
  %e1 = stablehlo.compare EQ, %a1, %b1 : (tensor<7x33xf32>, tensor<7x33xf32>) -> tensor<7x33xi1>
  %tr1 = stablehlo.constant dense<true> : tensor<i1>
  %ok1 = stablehlo.reduce(%e1 init: %tr1) applies stablehlo.and across dimensions = [0, 1] : (tensor<7x33xi1>, tensor<i1>) -> tensor<i1>
  %x2_i0 = stablehlo.iota dim = 0 : tensor<6x40x50xi32>
  %x2_k0 = stablehlo.constant dense<3> : tensor<6x40x50xi32>
  %x2_p0 = stablehlo.multiply %x2_i0, %x2_k0 : tensor<6x40x50xi32>
  %x2_i1 = stablehlo.iota dim = 1 : tensor<6x40x50xi32>
  %x2_k1 = stablehlo.constant dense<5> : tensor<6x40x50xi32>
  %x2_p1 = stablehlo.multiply %x2_i1, %x2_k1 : tensor<6x40x50xi32>
  %x2_i2 = stablehlo.iota dim = 2 : tensor<6x40x50xi32>
  %x2_k2 = stablehlo.constant dense<7> : tensor<6x40x50xi32>
  %x2_p2 = stablehlo.multiply %x2_i2, %x2_k2 : tensor<6x40x50xi32>
  %x2_s0 = stablehlo.add %x2_p0, %x2_p1 : tensor<6x40x50xi32>
  %x2_s1 = stablehlo.add %x2_s0, %x2_p2 : tensor<6x40x50xi32>
  %x2_m = stablehlo.constant dense<11> : tensor<6x40x50xi32>
  %x2_o = stablehlo.constant dense<5> : tensor<6x40x50xi32>
  %x2_r = stablehlo.remainder %x2_s1, %x2_m : tensor<6x40x50xi32>
  %x2 = stablehlo.subtract %x2_r, %x2_o : tensor<6x40x50xi32>
  %z2 = stablehlo.constant dense<7> : tensor<i32>
  %a2 = stablehlo.reduce(%x2 init: %z2) applies stablehlo.add across dimensions = [1] : (tensor<6x40x50xi32>, tensor<i32>) -> tensor<6x50xi32>
  %t2 = stablehlo.transpose %x2, dims = [0, 2, 1] : (tensor<6x40x50xi32>) -> tensor<6x50x40xi32>
  %b2 = stablehlo.reduce(%t2 init: %z2) applies stablehlo.add across dimensions = [2] : (tensor<6x50x40xi32>, tensor<i32>) -> tensor<6x50xi32>
  %e2 = stablehlo.compare EQ, %a2, %b2 : (tensor<6x50xi32>, tensor<6x50xi32>) -> tensor<6x50xi1>
  %tr2 = stablehlo.constant dense<true> : tensor<i1>
  %ok2 = stablehlo.reduce(%e2 init: %tr2) applies stablehlo.and across dimensions = [0, 1] : (tensor<6x50xi1>, tensor<i1>) -> tensor<i1>
  %x3_i0 = stablehlo.iota dim = 0 : tensor<16x40000xf32>
  %x3_k0 = stablehlo.constant dense<3.0> : tensor<16x40000xf32>
  %x3_p0 = stablehlo.multiply %x3_i0, %x3_k0 : tensor<16x40000xf32>
  %x3_i1 = stablehlo.iota dim = 1 : tensor<16x40000xf32>
  %x3_k1 = stablehlo.constant dense<5.0> : tensor<16x40000xf32>
  %x3_p1 = stablehlo.multiply %x3_i1, %x3_k1 : tensor<16x40000xf32>
  %x3_s0 = stablehlo.add %x3_p0, %x3_p1 : tensor<16x40000xf32>
  %x3_m = stablehlo.constant dense<11.0> : tensor<16x40000xf32>
  %x3_o = stablehlo.constant dense<5.0> : tensor<16x40000xf32>
  %x3_r = stablehlo.remainder %x3_s0, %x3_m : tensor<16x40000xf32>
  %x3 = stablehlo.subtract %x3_r, %x3_o : tensor<16x40000xf32>
  %z3 = stablehlo.constant dense<0.0> : tensor<f32>
  %a3 = stablehlo.reduce(%x3 init: %z3) applies stablehlo.add across dimensions = [0] : (tensor<16x40000xf32>, tensor<f32>) -> tensor<40000xf32>
  %t3 = stablehlo.transpose %x3, dims = [1, 0] : (tensor<16x40000xf32>) -> tensor<40000x16xf32>
  %b3 = stablehlo.reduce(%t3 init: %z3) applies stablehlo.add across dimensions = [1] : (tensor<40000x16xf32>, tensor<f32>) -> tensor<40000xf32>
  %e3 = stablehlo.compare EQ, %a3, %b3 : (tensor<40000xf32>, tensor<40000xf32>) -> tensor<40000xi1>
  %tr3 = stablehlo.constant dense<true> : tensor<i1>
  %ok3 = stablehlo.reduce(%e3 init: %tr3) applies stablehlo.and across dimensions = [0] : (tensor<40000xi1>, tensor<i1>) -> tensor<i1>
  %x4_i0 = stablehlo.iota dim = 0 : tensor<64x3x200x100xf32>
  %x4_k0 = stablehlo.constant dense<3.0> : tensor<64x3x200x100xf32>
  %x4_p0 = stablehlo.multiply %x4_i0, %x4_k0 : tensor<64x3x200x100xf32>
  %x4_i1 = stablehlo.iota dim = 1 : tensor<64x3x200x100xf32>
  %x4_k1 = stablehlo.constant dense<5.0> : tensor<64x3x200x100xf32>
  %x4_p1 = stablehlo.multiply %x4_i1, %x4_k1 : tensor<64x3x200x100xf32>
  %x4_i2 = stablehlo.iota dim = 2 : tensor<64x3x200x100xf32>
  %x4_k2 = stablehlo.constant dense<7.0> : tensor<64x3x200x100xf32>
  %x4_p2 = stablehlo.multiply %x4_i2, %x4_k2 : tensor<64x3x200x100xf32>
  %x4_i3 = stablehlo.iota dim = 3 : tensor<64x3x200x100xf32>
  %x4_k3 = stablehlo.constant dense<2.0> : tensor<64x3x200x100xf32>
  %x4_p3 = stablehlo.multiply %x4_i3, %x4_k3 : tensor<64x3x200x100xf32>
  %x4_s0 = stablehlo.add %x4_p0, %x4_p1 : tensor<64x3x200x100xf32>
  %x4_s1 = stablehlo.add %x4_s0, %x4_p2 : tensor<64x3x200x100xf32>
  %x4_s2 = stablehlo.add %x4_s1, %x4_p3 : tensor<64x3x200x100xf32>
  %x4_m = stablehlo.constant dense<13.0> : tensor<64x3x200x100xf32>
  %x4_o = stablehlo.constant dense<6.0> : tensor<64x3x200x100xf32>
  %x4_r = stablehlo.remainder %x4_s2, %x4_m : tensor<64x3x200x100xf32>
  %x4 = stablehlo.subtract %x4_r, %x4_o : tensor<64x3x200x100xf32>
  %z4 = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %a4 = stablehlo.reduce(%x4 init: %z4) applies stablehlo.minimum across dimensions = [1] : (tensor<64x3x200x100xf32>, tensor<f32>) -> tensor<64x200x100xf32>
  %t4 = stablehlo.transpose %x4, dims = [0, 2, 3, 1] : (tensor<64x3x200x100xf32>) -> tensor<64x200x100x3xf32>
  %b4 = stablehlo.reduce(%t4 init: %z4) applies stablehlo.minimum across dimensions = [3] : (tensor<64x200x100x3xf32>, tensor<f32>) -> tensor<64x200x100xf32>
  %e4 = stablehlo.compare EQ, %a4, %b4 : (tensor<64x200x100xf32>, tensor<64x200x100xf32>) -> tensor<64x200x100xi1>
  %tr4 = stablehlo.constant dense<true> : tensor<i1>
  %ok4 = stablehlo.reduce(%e4 init: %tr4) applies stablehlo.and across dimensions = [0, 1, 2] : (tensor<64x200x100xi1>, tensor<i1>) -> tensor<i1>
  %q5 = stablehlo.iota dim = 1 : tensor<9x20xi32>
  %q25 = stablehlo.iota dim = 0 : tensor<9x20xi32>
  %qs5 = stablehlo.multiply %q5, %q25 : tensor<9x20xi32>
  %c35 = stablehlo.constant dense<7> : tensor<9x20xi32>
  %qr5 = stablehlo.remainder %qs5, %c35 : tensor<9x20xi32>
  %c05 = stablehlo.constant dense<3> : tensor<9x20xi32>
  %x5 = stablehlo.compare EQ, %qr5, %c05 : (tensor<9x20xi32>, tensor<9x20xi32>) -> tensor<9x20xi1>
  %z5 = stablehlo.constant dense<false> : tensor<i1>
  %a5 = stablehlo.reduce(%x5 init: %z5) applies stablehlo.or across dimensions = [0] : (tensor<9x20xi1>, tensor<i1>) -> tensor<20xi1>
  %t5 = stablehlo.transpose %x5, dims = [1, 0] : (tensor<9x20xi1>) -> tensor<20x9xi1>
  %b5 = stablehlo.reduce(%t5 init: %z5) applies stablehlo.or across dimensions = [1] : (tensor<20x9xi1>, tensor<i1>) -> tensor<20xi1>
  %e5 = stablehlo.compare EQ, %a5, %b5 : (tensor<20xi1>, tensor<20xi1>) -> tensor<20xi1>
  %tr5 = stablehlo.constant dense<true> : tensor<i1>
  %ok5 = stablehlo.reduce(%e5 init: %tr5) applies stablehlo.and across dimensions = [0] : (tensor<20xi1>, tensor<i1>) -> tensor<i1>
  return %ok0, %ok1, %ok2, %ok3, %ok4, %ok5 : tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>
}
