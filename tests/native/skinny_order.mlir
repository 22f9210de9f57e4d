// The entry of tests/native/skinny_order.c: skinny products (codegen/
// gemm.c, B along N read in place) whose rows are a power of 2 of bytes
// apart (4 KiB: 1024 f32 or 512 f64; 1 KiB: 256 f32), so that the strips
// run forward or back (skinny_reverse) as the driver places the result
// relative to the weights modulo a page. The last two (M > 1, rows of
// 1 KiB or more) are computed in the kernel's scratch at the weights'
// offset within a line when the result lies at another (codegen/gemm.c,
// skinny_stage_at): one long enough along K for two threads to split it
// (K >= 256: each part's slot placed against its own rows of B), one
// batched.
func.func @main(%x1: tensor<7x19xf32>, %w1: tensor<19x1024xf32>,
                %x2: tensor<2x33xf32>, %w2: tensor<33x256xf32>,
                %x3: tensor<1x17xf32>, %w3: tensor<17x1024xf32>,
                %x4: tensor<3x21xf64>, %w4: tensor<21x512xf64>,
                %x5: tensor<4x260xf32>, %w5: tensor<260x300xf32>,
                %x6: tensor<2x3x40xf32>, %w6: tensor<2x40x384xf32>)
    -> (tensor<7x1024xf32>, tensor<2x256xf32>, tensor<1x1024xf32>, tensor<3x512xf64>,
        tensor<4x300xf32>, tensor<2x3x384xf32>) {
  %d1 = stablehlo.dot_general %x1, %w1, contracting_dims = [1] x [0] : (tensor<7x19xf32>, tensor<19x1024xf32>) -> tensor<7x1024xf32>
  %d2 = stablehlo.dot_general %x2, %w2, contracting_dims = [1] x [0] : (tensor<2x33xf32>, tensor<33x256xf32>) -> tensor<2x256xf32>
  %d3 = stablehlo.dot_general %x3, %w3, contracting_dims = [1] x [0] : (tensor<1x17xf32>, tensor<17x1024xf32>) -> tensor<1x1024xf32>
  %d4 = stablehlo.dot_general %x4, %w4, contracting_dims = [1] x [0] : (tensor<3x21xf64>, tensor<21x512xf64>) -> tensor<3x512xf64>
  %d5 = stablehlo.dot_general %x5, %w5, contracting_dims = [1] x [0] : (tensor<4x260xf32>, tensor<260x300xf32>) -> tensor<4x300xf32>
  %d6 = stablehlo.dot_general %x6, %w6, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x40xf32>, tensor<2x40x384xf32>) -> tensor<2x3x384xf32>
  func.return %d1, %d2, %d3, %d4, %d5, %d6 : tensor<7x1024xf32>, tensor<2x256xf32>, tensor<1x1024xf32>, tensor<3x512xf64>, tensor<4x300xf32>, tensor<2x3x384xf32>
}
