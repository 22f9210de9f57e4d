// A chain of five elementwise ops over two 16M-element f32 vectors, which
// fusion turns into one kernel: it reads 128 MiB and writes 64 MiB, so it
// measures memory bandwidth (compare with the STREAM triad anchor).
func.func @main(%x: tensor<16777216xf32>, %y: tensor<16777216xf32>) -> tensor<16777216xf32> {
  %half = stablehlo.constant dense<0.5> : tensor<16777216xf32>
  %0 = stablehlo.multiply %x, %y : tensor<16777216xf32>
  %1 = stablehlo.add %0, %x : tensor<16777216xf32>
  %2 = stablehlo.subtract %1, %y : tensor<16777216xf32>
  %3 = stablehlo.maximum %2, %x : tensor<16777216xf32>
  %4 = stablehlo.multiply %3, %half : tensor<16777216xf32>
  return %4 : tensor<16777216xf32>
}
