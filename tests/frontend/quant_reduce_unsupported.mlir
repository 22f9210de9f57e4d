// A reduce over quantized values would need its body run on dequantized
// values; passes/quant.c rejects it with a located error.
// ERROR: quant_reduce_unsupported.mlir:7:8: error:
func.func @main(%x: tensor<4x!quant.uniform<i8:f32, 0.5:-2>>) -> tensor<!quant.uniform<i8:f32, 0.5:-2>> {
  %init = stablehlo.constant() {value = dense<-2> : tensor<i8>} : () -> tensor<!quant.uniform<i8:f32, 0.5:-2>>
  // ERROR: stablehlo.reduce: quantized types in ops with regions are not supported yet
  %r = stablehlo.reduce(%x init: %init) applies stablehlo.add across dimensions = [0] : (tensor<4x!quant.uniform<i8:f32, 0.5:-2>>, tensor<!quant.uniform<i8:f32, 0.5:-2>>) -> tensor<!quant.uniform<i8:f32, 0.5:-2>>
  return %r : tensor<!quant.uniform<i8:f32, 0.5:-2>>
}
