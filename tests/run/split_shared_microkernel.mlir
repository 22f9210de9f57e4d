// Eight layers h = clamp(lo_i, h @ w_i, hi_i), each with its own bounds (so
// its own kernel), all calling one GEMM microkernel: enough work for
// codegen/optsplit.c to optimize the kernels on two threads, with kernels
// on both sides, so that both modules define the microkernel (linked as
// LLVM modules; an object's second half calls the first's). Both copies
// start from the same bitcode and are optimized alike: the second
// module's is dropped at the link (SPLIT-COPIES), where it used to be kept
// as shloc_f32_gemm_ind_6x64__avx512.split. x and the weights are small
// integers made in the program (w_i from iotas, in {-1, 0, 1}), so every
// value is exact in f32. Expected values from numpy (float64): x =
// fmod(r * v + v, 7), m = (3k + 5j + i) mod 7, w_i = max(m - 5, 0) -
// max(1 - m, 0), lo_i = -6 - i mod 3, hi_i = 6 + i div 3, then row sums.
// RUN-ARGS: --input="48xf32=-5 2 -2 5 1 -3 4 0 -4 3 -1 -5 2 -2 5 1 -3 4 0 -4 3 -1 -5 2 -2 5 1 -3 4 0 -4 3 -1 -5 2 -2 5 1 -3 4 0 -4 3 -1 -5 2 -2 5"
// RUN-ARGS: --input="64xf32=-6 -1 4 -4 1 6 -2 3 -5 0 5 -3 2 -6 -1 4 -4 1 6 -2 3 -5 0 5 -3 2 -6 -1 4 -4 1 6 -2 3 -5 0 5 -3 2 -6 -1 4 -4 1 6 -2 3 -5 0 5 -3 2 -6 -1 4 -4 1 6 -2 3 -5 0 5 -3"
// RUN-ALSO: --threads=2
// SPLIT-COPIES: 0
// OUTPUT: 48xf32=[26 -28 89 15 -61 89 -54 98 20 78 0 26 -28 89 15 -61 89 -54 98 20 78 0 26 -28 89 15 -61 89 -54 98 20 78 0 26 -28 89 15 -61 89 -54 98 20 78 0 26 -28 89 15]
func.func @main(%r: tensor<48xf32>, %v: tensor<64xf32>) -> tensor<48xf32> {
  %rb = stablehlo.broadcast_in_dim %r, dims = [0] : (tensor<48xf32>) -> tensor<48x64xf32>
  %vb = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<64xf32>) -> tensor<48x64xf32>
  %rv = stablehlo.multiply %rb, %vb : tensor<48x64xf32>
  %rvv = stablehlo.add %rv, %vb : tensor<48x64xf32>
  %c7x = stablehlo.constant dense<7.0> : tensor<48x64xf32>
  %x = stablehlo.remainder %rvv, %c7x : tensor<48x64xf32>
  %ik = stablehlo.iota dim = 0 : tensor<64x64xf32>
  %ij = stablehlo.iota dim = 1 : tensor<64x64xf32>
  %c3 = stablehlo.constant dense<3.0> : tensor<64x64xf32>
  %c5 = stablehlo.constant dense<5.0> : tensor<64x64xf32>
  %c1 = stablehlo.constant dense<1.0> : tensor<64x64xf32>
  %c0 = stablehlo.constant dense<0.0> : tensor<64x64xf32>
  %c7 = stablehlo.constant dense<7.0> : tensor<64x64xf32>
  %k3 = stablehlo.multiply %ik, %c3 : tensor<64x64xf32>
  %j5 = stablehlo.multiply %ij, %c5 : tensor<64x64xf32>
  %kj = stablehlo.add %k3, %j5 : tensor<64x64xf32>
  %s0 = stablehlo.constant dense<0.0> : tensor<64x64xf32>
  %a0 = stablehlo.add %kj, %s0 : tensor<64x64xf32>
  %m0 = stablehlo.remainder %a0, %c7 : tensor<64x64xf32>
  %p0 = stablehlo.subtract %m0, %c5 : tensor<64x64xf32>
  %q0 = stablehlo.subtract %c1, %m0 : tensor<64x64xf32>
  %pp0 = stablehlo.maximum %p0, %c0 : tensor<64x64xf32>
  %qq0 = stablehlo.maximum %q0, %c0 : tensor<64x64xf32>
  %w0 = stablehlo.subtract %pp0, %qq0 : tensor<64x64xf32>
  %d0 = stablehlo.dot_general %x, %w0, contracting_dims = [1] x [0] : (tensor<48x64xf32>, tensor<64x64xf32>) -> tensor<48x64xf32>
  %lo0 = stablehlo.constant dense<-6.0> : tensor<f32>
  %hi0 = stablehlo.constant dense<6.0> : tensor<f32>
  %h0 = stablehlo.clamp %lo0, %d0, %hi0 : (tensor<f32>, tensor<48x64xf32>, tensor<f32>) -> tensor<48x64xf32>
  %s1 = stablehlo.constant dense<1.0> : tensor<64x64xf32>
  %a1 = stablehlo.add %kj, %s1 : tensor<64x64xf32>
  %m1 = stablehlo.remainder %a1, %c7 : tensor<64x64xf32>
  %p1 = stablehlo.subtract %m1, %c5 : tensor<64x64xf32>
  %q1 = stablehlo.subtract %c1, %m1 : tensor<64x64xf32>
  %pp1 = stablehlo.maximum %p1, %c0 : tensor<64x64xf32>
  %qq1 = stablehlo.maximum %q1, %c0 : tensor<64x64xf32>
  %w1 = stablehlo.subtract %pp1, %qq1 : tensor<64x64xf32>
  %d1 = stablehlo.dot_general %h0, %w1, contracting_dims = [1] x [0] : (tensor<48x64xf32>, tensor<64x64xf32>) -> tensor<48x64xf32>
  %lo1 = stablehlo.constant dense<-7.0> : tensor<f32>
  %hi1 = stablehlo.constant dense<6.0> : tensor<f32>
  %h1 = stablehlo.clamp %lo1, %d1, %hi1 : (tensor<f32>, tensor<48x64xf32>, tensor<f32>) -> tensor<48x64xf32>
  %s2 = stablehlo.constant dense<2.0> : tensor<64x64xf32>
  %a2 = stablehlo.add %kj, %s2 : tensor<64x64xf32>
  %m2 = stablehlo.remainder %a2, %c7 : tensor<64x64xf32>
  %p2 = stablehlo.subtract %m2, %c5 : tensor<64x64xf32>
  %q2 = stablehlo.subtract %c1, %m2 : tensor<64x64xf32>
  %pp2 = stablehlo.maximum %p2, %c0 : tensor<64x64xf32>
  %qq2 = stablehlo.maximum %q2, %c0 : tensor<64x64xf32>
  %w2 = stablehlo.subtract %pp2, %qq2 : tensor<64x64xf32>
  %d2 = stablehlo.dot_general %h1, %w2, contracting_dims = [1] x [0] : (tensor<48x64xf32>, tensor<64x64xf32>) -> tensor<48x64xf32>
  %lo2 = stablehlo.constant dense<-8.0> : tensor<f32>
  %hi2 = stablehlo.constant dense<6.0> : tensor<f32>
  %h2 = stablehlo.clamp %lo2, %d2, %hi2 : (tensor<f32>, tensor<48x64xf32>, tensor<f32>) -> tensor<48x64xf32>
  %s3 = stablehlo.constant dense<3.0> : tensor<64x64xf32>
  %a3 = stablehlo.add %kj, %s3 : tensor<64x64xf32>
  %m3 = stablehlo.remainder %a3, %c7 : tensor<64x64xf32>
  %p3 = stablehlo.subtract %m3, %c5 : tensor<64x64xf32>
  %q3 = stablehlo.subtract %c1, %m3 : tensor<64x64xf32>
  %pp3 = stablehlo.maximum %p3, %c0 : tensor<64x64xf32>
  %qq3 = stablehlo.maximum %q3, %c0 : tensor<64x64xf32>
  %w3 = stablehlo.subtract %pp3, %qq3 : tensor<64x64xf32>
  %d3 = stablehlo.dot_general %h2, %w3, contracting_dims = [1] x [0] : (tensor<48x64xf32>, tensor<64x64xf32>) -> tensor<48x64xf32>
  %lo3 = stablehlo.constant dense<-6.0> : tensor<f32>
  %hi3 = stablehlo.constant dense<7.0> : tensor<f32>
  %h3 = stablehlo.clamp %lo3, %d3, %hi3 : (tensor<f32>, tensor<48x64xf32>, tensor<f32>) -> tensor<48x64xf32>
  %s4 = stablehlo.constant dense<4.0> : tensor<64x64xf32>
  %a4 = stablehlo.add %kj, %s4 : tensor<64x64xf32>
  %m4 = stablehlo.remainder %a4, %c7 : tensor<64x64xf32>
  %p4 = stablehlo.subtract %m4, %c5 : tensor<64x64xf32>
  %q4 = stablehlo.subtract %c1, %m4 : tensor<64x64xf32>
  %pp4 = stablehlo.maximum %p4, %c0 : tensor<64x64xf32>
  %qq4 = stablehlo.maximum %q4, %c0 : tensor<64x64xf32>
  %w4 = stablehlo.subtract %pp4, %qq4 : tensor<64x64xf32>
  %d4 = stablehlo.dot_general %h3, %w4, contracting_dims = [1] x [0] : (tensor<48x64xf32>, tensor<64x64xf32>) -> tensor<48x64xf32>
  %lo4 = stablehlo.constant dense<-7.0> : tensor<f32>
  %hi4 = stablehlo.constant dense<7.0> : tensor<f32>
  %h4 = stablehlo.clamp %lo4, %d4, %hi4 : (tensor<f32>, tensor<48x64xf32>, tensor<f32>) -> tensor<48x64xf32>
  %s5 = stablehlo.constant dense<5.0> : tensor<64x64xf32>
  %a5 = stablehlo.add %kj, %s5 : tensor<64x64xf32>
  %m5 = stablehlo.remainder %a5, %c7 : tensor<64x64xf32>
  %p5 = stablehlo.subtract %m5, %c5 : tensor<64x64xf32>
  %q5 = stablehlo.subtract %c1, %m5 : tensor<64x64xf32>
  %pp5 = stablehlo.maximum %p5, %c0 : tensor<64x64xf32>
  %qq5 = stablehlo.maximum %q5, %c0 : tensor<64x64xf32>
  %w5 = stablehlo.subtract %pp5, %qq5 : tensor<64x64xf32>
  %d5 = stablehlo.dot_general %h4, %w5, contracting_dims = [1] x [0] : (tensor<48x64xf32>, tensor<64x64xf32>) -> tensor<48x64xf32>
  %lo5 = stablehlo.constant dense<-8.0> : tensor<f32>
  %hi5 = stablehlo.constant dense<7.0> : tensor<f32>
  %h5 = stablehlo.clamp %lo5, %d5, %hi5 : (tensor<f32>, tensor<48x64xf32>, tensor<f32>) -> tensor<48x64xf32>
  %s6 = stablehlo.constant dense<6.0> : tensor<64x64xf32>
  %a6 = stablehlo.add %kj, %s6 : tensor<64x64xf32>
  %m6 = stablehlo.remainder %a6, %c7 : tensor<64x64xf32>
  %p6 = stablehlo.subtract %m6, %c5 : tensor<64x64xf32>
  %q6 = stablehlo.subtract %c1, %m6 : tensor<64x64xf32>
  %pp6 = stablehlo.maximum %p6, %c0 : tensor<64x64xf32>
  %qq6 = stablehlo.maximum %q6, %c0 : tensor<64x64xf32>
  %w6 = stablehlo.subtract %pp6, %qq6 : tensor<64x64xf32>
  %d6 = stablehlo.dot_general %h5, %w6, contracting_dims = [1] x [0] : (tensor<48x64xf32>, tensor<64x64xf32>) -> tensor<48x64xf32>
  %lo6 = stablehlo.constant dense<-6.0> : tensor<f32>
  %hi6 = stablehlo.constant dense<8.0> : tensor<f32>
  %h6 = stablehlo.clamp %lo6, %d6, %hi6 : (tensor<f32>, tensor<48x64xf32>, tensor<f32>) -> tensor<48x64xf32>
  %s7 = stablehlo.constant dense<7.0> : tensor<64x64xf32>
  %a7 = stablehlo.add %kj, %s7 : tensor<64x64xf32>
  %m7 = stablehlo.remainder %a7, %c7 : tensor<64x64xf32>
  %p7 = stablehlo.subtract %m7, %c5 : tensor<64x64xf32>
  %q7 = stablehlo.subtract %c1, %m7 : tensor<64x64xf32>
  %pp7 = stablehlo.maximum %p7, %c0 : tensor<64x64xf32>
  %qq7 = stablehlo.maximum %q7, %c0 : tensor<64x64xf32>
  %w7 = stablehlo.subtract %pp7, %qq7 : tensor<64x64xf32>
  %d7 = stablehlo.dot_general %h6, %w7, contracting_dims = [1] x [0] : (tensor<48x64xf32>, tensor<64x64xf32>) -> tensor<48x64xf32>
  %lo7 = stablehlo.constant dense<-7.0> : tensor<f32>
  %hi7 = stablehlo.constant dense<8.0> : tensor<f32>
  %h7 = stablehlo.clamp %lo7, %d7, %hi7 : (tensor<f32>, tensor<48x64xf32>, tensor<f32>) -> tensor<48x64xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%h7 init: %z) applies stablehlo.add across dimensions = [1] : (tensor<48x64xf32>, tensor<f32>) -> tensor<48xf32>
  return %sum : tensor<48xf32>
}
