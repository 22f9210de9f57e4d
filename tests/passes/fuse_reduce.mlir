// A reduction absorbs its producers (it reads each element once): the
// square and the convert are computed inside the reduce's kernel. The
// division by the count after it is a kernel of its own over the small
// result, reading the reduce's buffer.
func.func @main(%x: tensor<8x16xf16>) -> tensor<8xf32> {
  %c = stablehlo.convert %x : (tensor<8x16xf16>) -> tensor<8x16xf32>
  %q = stablehlo.multiply %c, %c : tensor<8x16xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%q init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %n = stablehlo.constant dense<16.0> : tensor<8xf32>
  %mean = stablehlo.divide %sum, %n : tensor<8xf32>
  return %mean : tensor<8xf32>
}
