// The entry of tests/native/check_args.c, compiled with --check-args: a
// GEMM (so the temp arena holds its scratch) and an empty argument.
func.func @main(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %z: tensor<0xf32>) -> (tensor<4x4xf32>, tensor<0xf32>) {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %n = stablehlo.negate %z : tensor<0xf32>
  func.return %d, %n : tensor<4x4xf32>, tensor<0xf32>
}
