// spec "fft": FFT of [1 2 3 4] (hand-checked: [10, -2+2i, -2, -2-2i]);
// RFFT of the odd length 3, [1 2 3] -> [6, -1.5+0.866025i] (w = e^(-2 pi i/3);
// the imaginary part is sqrt(3)/2 within 1 ulp: 2 sin + 3 sin rounded);
// IRFFT back to [1 2 3]; IFFT of the FFT's result back to [1 2 3 4].
// RUN-ARGS: --input="4xf64=1 2 3 4" --input="3xf64=1 2 3"
// OUTPUT: 4xcomplex<f64>=[(10,0) (-2,2) (-2,0) (-2,-2)]
// OUTPUT: 2xcomplex<f64>=[(6,0) (-1.5,0.8660254037844388)]
// OUTPUT: 3xf64=[1 2 3]
// OUTPUT: 4xcomplex<f64>=[(1,0) (2,0) (3,0) (4,0)]
func.func @main(%xr: tensor<4xf64>, %r: tensor<3xf64>) -> (tensor<4xcomplex<f64>>, tensor<2xcomplex<f64>>, tensor<3xf64>, tensor<4xcomplex<f64>>) {
  %x = stablehlo.convert %xr : (tensor<4xf64>) -> tensor<4xcomplex<f64>>
  %0 = stablehlo.fft %x, type = FFT, length = [4] : (tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>>
  %1 = stablehlo.fft %r, type = RFFT, length = [3] : (tensor<3xf64>) -> tensor<2xcomplex<f64>>
  %2 = stablehlo.fft %1, type = IRFFT, length = [3] : (tensor<2xcomplex<f64>>) -> tensor<3xf64>
  %3 = stablehlo.fft %0, type = IFFT, length = [4] : (tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>>
  return %0, %1, %2, %3 : tensor<4xcomplex<f64>>, tensor<2xcomplex<f64>>, tensor<3xf64>, tensor<4xcomplex<f64>>
}
