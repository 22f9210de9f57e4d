// Seven pairs of kernels that differ in one thing only: a constant (+1 vs
// +2), a comparison direction (GT vs LT), the kind of shift (arithmetic vs
// logical), a multiplier's sign (-0.0 vs 0.0), non-splat constants, a
// reduce body (add vs maximum), a power's constant exponent (2 vs 3).
// kernel.c's structural key must tell each pair apart: at -O0 (no fusion:
// one kernel per op) the 14 ops compile to 14 kernel functions (KERNELS),
// and each output is its own op's. Expected values from numpy.
// RUN-ARGS: -O0
// RUN-ARGS: --input="2x4xf32=1 -2 3 0.5 -1 2 -3 4"
// RUN-ARGS: --input="2x4xf32=0 -2 4 0 1 1 -3 5"
// RUN-ARGS: --input="2x4xi32=-16 16 -1 7 -256 255 -8 8"
// RUN-ARGS: --input="2x4xi32=1 2 3 0 4 1 31 2"
// KERNELS: 14
// OUTPUT: 2x4xf32=[[2 -1 4 1.5][0 3 -2 5]]
// OUTPUT: 2x4xf32=[[3 0 5 2.5][1 4 -1 6]]
// OUTPUT: 2x4xi1=[[1 0 0 1][0 1 0 0]]
// OUTPUT: 2x4xi1=[[0 0 1 0][1 0 0 1]]
// OUTPUT: 2x4xi32=[[-8 4 -1 7][-16 127 -1 2]]
// OUTPUT: 2x4xi32=[[2147483640 4 536870911 7][268435440 127 1 2]]
// OUTPUT: 2x4xf32=[[-0 0 -0 -0][0 -0 0 -0]]
// OUTPUT: 2x4xf32=[[0 -0 0 0][-0 0 -0 0]]
// OUTPUT: 2x4xf32=[[2 0 6 4.5][4 8 4 12]]
// OUTPUT: 2x4xf32=[[9 5 9 5.5][3 5 -1 5]]
// OUTPUT: 2xf32=[2.5 2]
// OUTPUT: 2xf32=[3 4]
// OUTPUT: 2x4xf32=[[1 4 9 0.25][1 4 9 16]]
// OUTPUT: 2x4xf32=[[1 -8 27 0.125][-1 8 -27 64]]
func.func @main(%x: tensor<2x4xf32>, %y: tensor<2x4xf32>, %i: tensor<2x4xi32>, %k: tensor<2x4xi32>)
    -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi32>, tensor<2x4xi32>,
        tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2xf32>, tensor<2xf32>,
        tensor<2x4xf32>, tensor<2x4xf32>) {
  %one = stablehlo.constant dense<1.0> : tensor<2x4xf32>
  %two = stablehlo.constant dense<2.0> : tensor<2x4xf32>
  %a1 = stablehlo.add %x, %one : tensor<2x4xf32>
  %a2 = stablehlo.add %x, %two : tensor<2x4xf32>
  %c1 = stablehlo.compare GT, %x, %y : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
  %c2 = stablehlo.compare LT, %x, %y : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
  %s1 = stablehlo.shift_right_arithmetic %i, %k : tensor<2x4xi32>
  %s2 = stablehlo.shift_right_logical %i, %k : tensor<2x4xi32>
  %nz = stablehlo.constant dense<-0.0> : tensor<2x4xf32>
  %pz = stablehlo.constant dense<0.0> : tensor<2x4xf32>
  %m1 = stablehlo.multiply %x, %nz : tensor<2x4xf32>
  %m2 = stablehlo.multiply %x, %pz : tensor<2x4xf32>
  %d1 = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %d2 = stablehlo.constant dense<[[8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0]]> : tensor<2x4xf32>
  %n1 = stablehlo.add %x, %d1 : tensor<2x4xf32>
  %n2 = stablehlo.add %x, %d2 : tensor<2x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r1 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
  %r2 = stablehlo.reduce(%x init: %z) applies stablehlo.maximum across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
  %e2 = stablehlo.constant dense<2.0> : tensor<2x4xf32>
  %e3 = stablehlo.constant dense<3.0> : tensor<2x4xf32>
  %p1 = stablehlo.power %x, %e2 : tensor<2x4xf32>
  %p2 = stablehlo.power %x, %e3 : tensor<2x4xf32>
  return %a1, %a2, %c1, %c2, %s1, %s2, %m1, %m2, %n1, %n2, %r1, %r2, %p1, %p2 :
    tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi32>, tensor<2x4xi32>,
    tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2xf32>, tensor<2xf32>,
    tensor<2x4xf32>, tensor<2x4xf32>
}
