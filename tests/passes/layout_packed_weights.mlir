// The layout pass (passes/layout.c) packs constants whose every use is the
// B operand of a blocked GEMM kernel, for the pinned target's tile (AVX2:
// NR = 24 floats, a convolution's 16; KC = min(K, 512) for a dot that reads A in place, else
// min(K, 128)): %w (K = 200: one slice, N = 50 padded to 72), shared by
// two dots; the convolution's kernel (3 x 3 taps of 3 features, each
// kernel row's 3 taps folded into K = 9; its 4 tile rows are too few for
// Winograd, ir.h IR_WINO_MIN_TILE_ROWS); %s, whose dot has 4 rows, in panels
// of one K slice (the packed skinny path, which AVX2 takes with one thread
// too: gemm.c's serial_packed; layout_skinny_serial.mlir: AVX-512 does not).
// Not packed: %r, which an add also reads row-major.
// ARGS: --target=x86_64-linux-gnu --features=+avx2,+fma
func.func @main(%x: tensor<16x200xf32>, %y: tensor<4x200xf32>, %img: tensor<1x8x8x3xf32>)
    -> (tensor<16x50xf32>, tensor<16x50xf32>, tensor<16x50xf32>, tensor<200x50xf32>,
        tensor<4x50xf32>, tensor<1x8x8x16xf32>) {
  %w = stablehlo.constant dense<0.5> : tensor<200x50xf32>
  %r = stablehlo.constant dense<0.25> : tensor<200x50xf32>
  %s = stablehlo.constant dense<2.0> : tensor<200x50xf32>
  %k = stablehlo.constant dense<1.0> : tensor<3x3x3x16xf32>
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<16x200xf32>, tensor<200x50xf32>) -> tensor<16x50xf32>
  %1 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<16x200xf32>, tensor<200x50xf32>) -> tensor<16x50xf32>
  %2 = stablehlo.dot_general %x, %r, contracting_dims = [1] x [0] : (tensor<16x200xf32>, tensor<200x50xf32>) -> tensor<16x50xf32>
  %3 = stablehlo.add %r, %r : tensor<200x50xf32>
  %4 = stablehlo.dot_general %y, %s, contracting_dims = [1] x [0] : (tensor<4x200xf32>, tensor<200x50xf32>) -> tensor<4x50xf32>
  %5 = stablehlo.convolution(%img, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<16x50xf32>, tensor<16x50xf32>, tensor<16x50xf32>, tensor<200x50xf32>, tensor<4x50xf32>, tensor<1x8x8x16xf32>
}
