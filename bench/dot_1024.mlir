// C = A * B for 1024 x 1024 f32 matrices: one stablehlo.dot_general, run by
// the blocked GEMM kernel (codegen/dot.c). 2 * 1024^3 flops.
func.func @main(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
      : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %0 : tensor<1024x1024xf32>
}
