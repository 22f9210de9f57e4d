// An op outside the set compiled on symbolic sizes (codegen/dyndims.c) is
// an error at its location that names it and the options that specialize.
// ERROR: symbolic_unsupported_op.mlir:7:8: error: stablehlo.pad: not compiled on symbolic sizes; specialize the program with --input-shapes or --dim
func.func public @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %x2 = stablehlo.add %x, %x : tensor<?xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %p = stablehlo.pad %x2, %z, low = [1], high = [1], interior = [0] : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  return %p : tensor<?xf32>
}
