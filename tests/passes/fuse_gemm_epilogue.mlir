// A dot_general whose only user starts an elementwise chain (bias add,
// ReLU) is fused into that chain's root as a GEMM epilogue: no buffer for
// the product; the dot's operands stay in memory (its kernel reads buffers),
// so the negate feeding it is a kernel of its own.
// The fused dot carries its GEMM kernel's scratch, live until the root.
// ARGS: --target=x86_64-linux-gnu --features=+avx2,+fma
func.func @main(%x: tensor<16x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>) -> tensor<16x64xf32> {
  %xn = stablehlo.negate %x : tensor<16x32xf32>
  %d = stablehlo.dot_general %xn, %w, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<64xf32>) -> tensor<16x64xf32>
  %s = stablehlo.add %d, %bb : tensor<16x64xf32>
  %z = stablehlo.constant dense<0.0> : tensor<16x64xf32>
  %r = stablehlo.maximum %s, %z : tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}
