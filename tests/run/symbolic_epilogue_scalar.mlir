// fuse_epilogue_source on symbolic sizes (codegen/dyndims.c applies the
// fuse pass's rule): a dot_general of two vectors of symbolic length, a
// 0-d result, finished by add and multiply as its epilogue; the same
// product as the 0-d min of a clamp over a vector is not the clamp's
// epilogue (not of its shape) but a value of its own.
// Expected values from numpy: x . y = 9, (9 + 1.5)^2 = 110.25,
// np.clip([5, 20, -1, 11, 13], 9, 12) = [9 12 9 11 12].
// RUN-ARGS: --symbolic
// RUN-ARGS: --input="4xf32=1 2 -3 4"
// RUN-ARGS: --input="4xf32=2 -1 1 3"
// RUN-ARGS: --input="5xf32=5 20 -1 11 13"
// OUTPUT: f32=110.25
// OUTPUT: 5xf32=[9 12 9 11 12]
func.func public @main(%x: tensor<?xf32>, %y: tensor<?xf32>, %z: tensor<?xf32>) -> (tensor<f32>, tensor<?xf32>) {
  %d = stablehlo.dot_general %x, %y, contracting_dims = [0] x [0] : (tensor<?xf32>, tensor<?xf32>) -> tensor<f32>
  %c = stablehlo.constant dense<1.5> : tensor<f32>
  %s = stablehlo.add %d, %c : tensor<f32>
  %r = stablehlo.multiply %s, %s : tensor<f32>
  %d2 = stablehlo.dot_general %x, %y, contracting_dims = [0] x [0] : (tensor<?xf32>, tensor<?xf32>) -> tensor<f32>
  %hi = stablehlo.constant dense<12.0> : tensor<f32>
  %cl = stablehlo.clamp %d2, %z, %hi : (tensor<f32>, tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  return %r, %cl : tensor<f32>, tensor<?xf32>
}
