// For tests/native/reentrant.c: a while loop of GEMM + tanh steps, then two
// reductions; compiled once serial (--name=ser) and once with --threads=2
// (--name=par), whose large kernels go through shlort_parallel_for.
func.func public @main(%x: tensor<128x256xf32>, %w: tensor<256x256xf32>)
    -> (tensor<128xf32>, tensor<f32>, tensor<i32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %n = stablehlo.constant dense<3> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, tensor<128x256xf32>
  cond {
    %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %d = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0]
        : (tensor<128x256xf32>, tensor<256x256xf32>) -> tensor<128x256xf32>
    %t = stablehlo.tanh %d : tensor<128x256xf32>
    %i1 = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %i1, %t : tensor<i32>, tensor<128x256xf32>
  }
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %s = stablehlo.reduce(%r#1 init: %z) applies stablehlo.add across dimensions = [1]
      : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
  %m = stablehlo.reduce(%r#1 init: %ninf) applies stablehlo.maximum across dimensions = [0, 1]
      : (tensor<128x256xf32>, tensor<f32>) -> tensor<f32>
  return %s, %m, %r#0 : tensor<128xf32>, tensor<f32>, tensor<i32>
}
