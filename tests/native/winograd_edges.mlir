// The entries of tests/native/winograd_edges.c: 3 x 3 stride-1 convolutions
// whose result tiles overhang the result's bottom and right edges, so the
// Winograd output transform (codegen/winograd.c wino_store_kept) computes
// addresses past the result's end that it must not store to.
// @f4: F(4 x 4, 3 x 3) (ir.h IR_WINO_F4_MULS_PER_READ), batch 3, 23 x 22
// results: 6 x 6 tiles an image, the last tile row 1 past the bottom and
// the last tile column 2 past the right edge, 16 features (2 vectors).
// @f2: F(2 x 2, 3 x 3), batch 2, 13 x 9 results (1 past each edge), 8
// features (1 vector).
module @wge {
  func.func public @f4(%a: tensor<3x23x22x8xf32>) -> tensor<3x23x22x16xf32> {
    %k = stablehlo.constant dense<0.25> : tensor<3x3x8x16xf32>
    %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<3x23x22x8xf32>, tensor<3x3x8x16xf32>) -> tensor<3x23x22x16xf32>
    return %0 : tensor<3x23x22x16xf32>
  }
  func.func public @f2(%a: tensor<2x13x9x8xf32>) -> tensor<2x13x9x8xf32> {
    %k = stablehlo.constant dense<0.5> : tensor<3x3x8x8xf32>
    %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x13x9x8xf32>, tensor<3x3x8x8xf32>) -> tensor<2x13x9x8xf32>
    return %0 : tensor<2x13x9x8xf32>
  }
}
