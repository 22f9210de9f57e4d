// An fft over several dimensions with complex<f32> results keeps its
// intermediate values in complex<f64> scratch (codegen/fft.c), at most
// 64 MiB for one batch: 2048 x 2049 points need more, a located error.
// HOST-ONLY: a compile error, the same for every target
// ERROR: fft_batch_too_large.mlir:9:8: error: stablehlo.fft
// ERROR: more than 4 Mi points a batch (64 MiB) are not supported
func.func @main() -> tensor<2048x2049xcomplex<f32>> {
  %c = stablehlo.constant dense<(1.0, 0.0)> : tensor<2048x2049xcomplex<f32>>
  %r = stablehlo.fft %c, type = FFT, length = [2048, 2049] : (tensor<2048x2049xcomplex<f32>>) -> tensor<2048x2049xcomplex<f32>>
  return %r : tensor<2048x2049xcomplex<f32>>
}
