// An op outside the set compiled on symbolic sizes (codegen/dyndims.c) is
// an error at its location that names it and the options that specialize.
// ERROR: symbolic_unsupported_op.mlir:6:8: error: stablehlo.fft: not compiled on symbolic sizes; specialize the program with --input-shapes or --dim
func.func public @main(%x: tensor<?x4xcomplex<f32>>) -> tensor<?x4xcomplex<f32>> {
  %x2 = stablehlo.add %x, %x : tensor<?x4xcomplex<f32>>
  %f = stablehlo.fft %x2, type = FFT, length = [4] : (tensor<?x4xcomplex<f32>>) -> tensor<?x4xcomplex<f32>>
  return %f : tensor<?x4xcomplex<f32>>
}
