// Fusion of elementwise chains (docs/passes.md "fuse"): a cheap chain with
// one use is computed inside its consumer; an expensive op (exp) used twice
// gets a buffer rather than being recomputed; a broadcast of a bias is
// recomputed in each user (cheap index remapping, no stream of its own);
// the two users of exp are siblings: one kernel stores both.
func.func @main(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
  %s = stablehlo.add %x, %bb : tensor<4x8xf32>
  %e = stablehlo.exponential %s : tensor<4x8xf32>
  %m = stablehlo.multiply %e, %bb : tensor<4x8xf32>
  %n = stablehlo.negate %e : tensor<4x8xf32>
  %r = stablehlo.subtract %n, %bb : tensor<4x8xf32>
  return %m, %r : tensor<4x8xf32>, tensor<4x8xf32>
}
