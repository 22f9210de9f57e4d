// Which Winograd tile the layout pass packs a 3 x 3 stride-1 kernel for
// (ir.c ir_conv_wino, ir.h IR_WINO_F4_MULS_PER_READ), on the pinned AVX2
// target's convolution tile (NR = 16 floats; K slices of min(C, 128) rows):
// F(4 x 4, 3 x 3), 36 matrices of C x Npad, for ResNet-50's 56 x 56 x 64
// layer (36 x 64 x 64 = 147456 elements) and a 28 x 28 image of 32 -> 16
// features (36 x 32 x 16 = 18432); F(2 x 2, 3 x 3), 16 matrices, for
// ResNet-50's 14 x 14 x 256 layer (16 x 256 x 256 = 1048576: its V,
// read by each of its blocks, would grow more than the multiplies shrink)
// and a 14 x 14 image of 32 -> 16 features (16 x 32 x 16 = 8192: 49
// tiles of 2 x 2 against 16 of 4 x 4, too few multiplies saved).
// ARGS: --target=x86_64-linux-gnu --features=+avx2,+fma
func.func @main(%a: tensor<1x56x56x64xf32>, %b: tensor<1x28x28x32xf32>,
                %c: tensor<1x14x14x256xf32>, %d: tensor<1x14x14x32xf32>)
    -> (tensor<1x56x56x64xf32>, tensor<1x28x28x16xf32>, tensor<1x14x14x256xf32>,
        tensor<1x14x14x16xf32>) {
  %ka = stablehlo.constant dense<0.5> : tensor<3x3x64x64xf32>
  %kb = stablehlo.constant dense<0.5> : tensor<3x3x32x16xf32>
  %kc = stablehlo.constant dense<0.5> : tensor<3x3x256x256xf32>
  %kd = stablehlo.constant dense<0.25> : tensor<3x3x32x16xf32>
  %0 = stablehlo.convolution(%a, %ka) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<1x56x56x64xf32>
  %1 = stablehlo.convolution(%b, %kb) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x28x28x32xf32>, tensor<3x3x32x16xf32>) -> tensor<1x28x28x16xf32>
  %2 = stablehlo.convolution(%c, %kc) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x14x14x256xf32>, tensor<3x3x256x256xf32>) -> tensor<1x14x14x256xf32>
  %3 = stablehlo.convolution(%d, %kd) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x14x14x32xf32>, tensor<3x3x32x16xf32>) -> tensor<1x14x14x16xf32>
  return %0, %1, %2, %3 : tensor<1x56x56x64xf32>, tensor<1x28x28x16xf32>, tensor<1x14x14x256xf32>, tensor<1x14x14x16xf32>
}
