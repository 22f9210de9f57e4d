// Three identical layers, relu(h @ w - 1): the first reads an argument and
// writes the arena, the second reads and writes the arena, the third writes
// the result. Their kernels differ only in the names of their buffers'
// pointers (memory.c names them after where they are, "buf" or "arena"),
// which kernel.c's comparison leaves out: one kernel (KERNELS), called
// with each layer's buffers. Expected values from numpy.
// RUN-ARGS: --input="2x4xf32=1 2 3 4 4 3 2 -1"
// RUN-ARGS: --input="4x4xf32=1 0 0 1 0 1 0 0 0 -1 1 0 1 0 0 0"
// KERNELS: 1
// OUTPUT: 2x4xf32=[[5 0 0 2][4 0 0 3]]
func.func @main(%x: tensor<2x4xf32>, %w: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %one = stablehlo.constant dense<1.0> : tensor<2x4xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<2x4xf32>
  %a = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %a1 = stablehlo.subtract %a, %one : tensor<2x4xf32>
  %h1 = stablehlo.maximum %a1, %zero : tensor<2x4xf32>
  %b = stablehlo.dot_general %h1, %w, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %b1 = stablehlo.subtract %b, %one : tensor<2x4xf32>
  %h2 = stablehlo.maximum %b1, %zero : tensor<2x4xf32>
  %c = stablehlo.dot_general %h2, %w, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %c1 = stablehlo.subtract %c, %one : tensor<2x4xf32>
  %h3 = stablehlo.maximum %c1, %zero : tensor<2x4xf32>
  return %h3 : tensor<2x4xf32>
}
