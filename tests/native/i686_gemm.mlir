// GEMMs for 32-bit x86 (tests/native/i686_gemm.c): the skinny paths, whose
// plans count 8 vector registers there (codegen/gemm.c vector_regs), with
// B along N at M = 5 and M = 1 and along K (x @ W^T) at M = 3, and the
// blocked path at 40 x 33 x 50.
func.func @main(%a: tensor<5x37xf32>, %b: tensor<37x45xf32>, %x: tensor<1x37xf32>,
                %t: tensor<3x37xf32>, %w: tensor<29x37xf32>,
                %c: tensor<40x33xf32>, %d: tensor<33x50xf32>)
    -> (tensor<5x45xf32>, tensor<1x45xf32>, tensor<3x29xf32>, tensor<40x50xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<5x37xf32>, tensor<37x45xf32>) -> tensor<5x45xf32>
  %1 = stablehlo.dot_general %x, %b, contracting_dims = [1] x [0] : (tensor<1x37xf32>, tensor<37x45xf32>) -> tensor<1x45xf32>
  %2 = stablehlo.dot_general %t, %w, contracting_dims = [1] x [1] : (tensor<3x37xf32>, tensor<29x37xf32>) -> tensor<3x29xf32>
  %3 = stablehlo.dot_general %c, %d, contracting_dims = [1] x [0] : (tensor<40x33xf32>, tensor<33x50xf32>) -> tensor<40x50xf32>
  return %0, %1, %2, %3 : tensor<5x45xf32>, tensor<1x45xf32>, tensor<3x29xf32>, tensor<40x50xf32>
}
