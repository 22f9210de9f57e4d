// The entry of tests/native/ksplit_sums.c: skinny products with weights as
// arguments whose K two or three threads split (codegen/dot.c's
// cg_dot_ksplit) and whose results are large enough (M x N >= 16384,
// KSPLIT_SUM_SPLIT_ELEMS) for the parts to be added up by one unit a
// thread, each a run of the columns (codegen/gemm.c's ksplit_sum), with
// its share of the epilogue: the first adds a bias row and clamps at 0
// (the dot's epilogue), the others have none; N is not a multiple of the
// threads or of a vector.
func.func @main(%x1: tensor<7x400xf32>, %w1: tensor<400x2500xf32>, %b1: tensor<2500xf32>,
                %x2: tensor<3x390xf32>, %w2: tensor<390x6001xf32>,
                %x3: tensor<4x401xf64>, %w3: tensor<401x4096xf64>)
    -> (tensor<7x2500xf32>, tensor<3x6001xf32>, tensor<4x4096xf64>) {
  %d1 = stablehlo.dot_general %x1, %w1, contracting_dims = [1] x [0] : (tensor<7x400xf32>, tensor<400x2500xf32>) -> tensor<7x2500xf32>
  %bb = stablehlo.broadcast_in_dim %b1, dims = [1] : (tensor<2500xf32>) -> tensor<7x2500xf32>
  %s1 = stablehlo.add %d1, %bb : tensor<7x2500xf32>
  %z = stablehlo.constant dense<0.0> : tensor<7x2500xf32>
  %r1 = stablehlo.maximum %s1, %z : tensor<7x2500xf32>
  %d2 = stablehlo.dot_general %x2, %w2, contracting_dims = [1] x [0] : (tensor<3x390xf32>, tensor<390x6001xf32>) -> tensor<3x6001xf32>
  %d3 = stablehlo.dot_general %x3, %w3, contracting_dims = [1] x [0] : (tensor<4x401xf64>, tensor<401x4096xf64>) -> tensor<4x4096xf64>
  func.return %r1, %d2, %d3 : tensor<7x2500xf32>, tensor<3x6001xf32>, tensor<4x4096xf64>
}
