// chlo.square is x * x (jax 0.10 exports jnp.square as chlo.square).
// Expected values: XLA CPU (jaxlib 0.10.2) on this program and input.
// RUN-ARGS: --input="4xf32=1.5 -2 0 3"
// OUTPUT: 4xf32=[2.25 4 0 9]
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = chlo.square %x : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
