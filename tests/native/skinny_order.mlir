// The entry of tests/native/skinny_order.c: skinny products (codegen/
// gemm.c, B along N read in place) whose rows are a power of 2 of bytes
// apart (4 KiB: 1024 f32 or 512 f64; 1 KiB: 256 f32), so that the strips
// run forward or back (skinny_reverse) as the driver places the result
// relative to the weights modulo a page.
func.func @main(%x1: tensor<7x19xf32>, %w1: tensor<19x1024xf32>,
                %x2: tensor<2x33xf32>, %w2: tensor<33x256xf32>,
                %x3: tensor<1x17xf32>, %w3: tensor<17x1024xf32>,
                %x4: tensor<3x21xf64>, %w4: tensor<21x512xf64>)
    -> (tensor<7x1024xf32>, tensor<2x256xf32>, tensor<1x1024xf32>, tensor<3x512xf64>) {
  %d1 = stablehlo.dot_general %x1, %w1, contracting_dims = [1] x [0] : (tensor<7x19xf32>, tensor<19x1024xf32>) -> tensor<7x1024xf32>
  %d2 = stablehlo.dot_general %x2, %w2, contracting_dims = [1] x [0] : (tensor<2x33xf32>, tensor<33x256xf32>) -> tensor<2x256xf32>
  %d3 = stablehlo.dot_general %x3, %w3, contracting_dims = [1] x [0] : (tensor<1x17xf32>, tensor<17x1024xf32>) -> tensor<1x1024xf32>
  %d4 = stablehlo.dot_general %x4, %w4, contracting_dims = [1] x [0] : (tensor<3x21xf64>, tensor<21x512xf64>) -> tensor<3x512xf64>
  func.return %d1, %d2, %d3, %d4 : tensor<7x1024xf32>, tensor<2x256xf32>, tensor<1x1024xf32>, tensor<3x512xf64>
}
