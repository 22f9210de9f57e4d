// --winograd=off: a 3 x 3 stride-1 convolution (6 tile rows), whose
// weights would be packed as 16 Winograd matrices, keeps the direct
// kernel's packing (one matrix per kernel position: 9 x 16 panels on the
// pinned AVX2 target's convolution tile, 3 x 3 taps of 3 features folded to 3 rows of
// 9) and the direct kernel's scratch, not the Winograd blocks'.
// ARGS: --target=x86_64-linux-gnu --features=+avx2,+fma --winograd=off
func.func @main(%img: tensor<1x12x12x3xf32>) -> tensor<1x12x12x16xf32> {
  %k = stablehlo.constant dense<1.0> : tensor<3x3x3x16xf32>
  %c = stablehlo.convolution(%img, %k)
         dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
         window = {stride = [1, 1], pad = [[1, 1], [1, 1]]}
         {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
       : (tensor<1x12x12x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x12x12x16xf32>
  return %c : tensor<1x12x12x16xf32>
}
