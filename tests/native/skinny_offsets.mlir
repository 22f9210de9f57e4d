// The entry of tests/native/skinny_offsets.c: skinny products (codegen/
// gemm.c, M <= 8 rows, B along N read in place) whose weights the driver
// places at every float offset within a cache line. The sixth is large
// enough for two threads (35000 elements), whose calls then start at
// columns that are not on a line either; the last (M = 1, 39300 elements)
// two threads split along K (codegen/dot.c's cg_dot_ksplit) in strips of
// two lines. The M = 1 products on AVX2 read K in 4 runs (codegen/gemm.c's
// skinny_far): K = 3 has no runs, K = 1030 two rows left after them (and
// after each thread's runs), K = 103 too, with two threads splitting its
// 2000 columns (each call's rows of B longer than its columns). With
// AVX2, where 7 rows run as one group (skinny_fold), the head and edge
// strips of a call of 16 columns or more read B's 16 columns whole and
// store their own (skinny_edge): N = 16 (head and edge overlap each
// other), 17 and 100; N = 12 and 5 have fewer, masked.
func.func @main(%x1: tensor<1x37xf32>, %w1: tensor<37x45xf32>,
                %x2: tensor<3x50xf32>, %w2: tensor<50x48xf32>,
                %x3: tensor<7x33xf32>, %w3: tensor<33x100xf32>,
                %x4: tensor<8x70xf32>, %w4: tensor<70x64xf32>,
                %x5: tensor<7x20xf32>, %w5: tensor<20x5xf32>,
                %x6: tensor<7x19xf32>, %w6: tensor<19x5000xf32>,
                %x7: tensor<1x300xf32>, %w7: tensor<300x131xf32>,
                %x8: tensor<1x3xf32>, %w8: tensor<3x70xf32>,
                %x9: tensor<1x1030xf32>, %w9: tensor<1030x40xf32>,
                %x10: tensor<1x103xf32>, %w10: tensor<103x2000xf32>,
                %x11: tensor<7x40xf32>, %w11: tensor<40x16xf32>,
                %x12: tensor<7x21xf32>, %w12: tensor<21x12xf32>,
                %x13: tensor<7x35xf32>, %w13: tensor<35x17xf32>)
    -> (tensor<1x45xf32>, tensor<3x48xf32>, tensor<7x100xf32>, tensor<8x64xf32>,
        tensor<7x5xf32>, tensor<7x5000xf32>, tensor<1x131xf32>, tensor<1x70xf32>,
        tensor<1x40xf32>, tensor<1x2000xf32>, tensor<7x16xf32>, tensor<7x12xf32>,
        tensor<7x17xf32>) {
  %d1 = stablehlo.dot_general %x1, %w1, contracting_dims = [1] x [0] : (tensor<1x37xf32>, tensor<37x45xf32>) -> tensor<1x45xf32>
  %d2 = stablehlo.dot_general %x2, %w2, contracting_dims = [1] x [0] : (tensor<3x50xf32>, tensor<50x48xf32>) -> tensor<3x48xf32>
  %d3 = stablehlo.dot_general %x3, %w3, contracting_dims = [1] x [0] : (tensor<7x33xf32>, tensor<33x100xf32>) -> tensor<7x100xf32>
  %d4 = stablehlo.dot_general %x4, %w4, contracting_dims = [1] x [0] : (tensor<8x70xf32>, tensor<70x64xf32>) -> tensor<8x64xf32>
  %d5 = stablehlo.dot_general %x5, %w5, contracting_dims = [1] x [0] : (tensor<7x20xf32>, tensor<20x5xf32>) -> tensor<7x5xf32>
  %d6 = stablehlo.dot_general %x6, %w6, contracting_dims = [1] x [0] : (tensor<7x19xf32>, tensor<19x5000xf32>) -> tensor<7x5000xf32>
  %d7 = stablehlo.dot_general %x7, %w7, contracting_dims = [1] x [0] : (tensor<1x300xf32>, tensor<300x131xf32>) -> tensor<1x131xf32>
  %d8 = stablehlo.dot_general %x8, %w8, contracting_dims = [1] x [0] : (tensor<1x3xf32>, tensor<3x70xf32>) -> tensor<1x70xf32>
  %d9 = stablehlo.dot_general %x9, %w9, contracting_dims = [1] x [0] : (tensor<1x1030xf32>, tensor<1030x40xf32>) -> tensor<1x40xf32>
  %d10 = stablehlo.dot_general %x10, %w10, contracting_dims = [1] x [0] : (tensor<1x103xf32>, tensor<103x2000xf32>) -> tensor<1x2000xf32>
  %d11 = stablehlo.dot_general %x11, %w11, contracting_dims = [1] x [0] : (tensor<7x40xf32>, tensor<40x16xf32>) -> tensor<7x16xf32>
  %d12 = stablehlo.dot_general %x12, %w12, contracting_dims = [1] x [0] : (tensor<7x21xf32>, tensor<21x12xf32>) -> tensor<7x12xf32>
  %d13 = stablehlo.dot_general %x13, %w13, contracting_dims = [1] x [0] : (tensor<7x35xf32>, tensor<35x17xf32>) -> tensor<7x17xf32>
  func.return %d1, %d2, %d3, %d4, %d5, %d6, %d7, %d8, %d9, %d10, %d11, %d12, %d13 : tensor<1x45xf32>, tensor<3x48xf32>, tensor<7x100xf32>, tensor<8x64xf32>, tensor<7x5xf32>, tensor<7x5000xf32>, tensor<1x131xf32>, tensor<1x70xf32>, tensor<1x40xf32>, tensor<1x2000xf32>, tensor<7x16xf32>, tensor<7x12xf32>, tensor<7x17xf32>
}
