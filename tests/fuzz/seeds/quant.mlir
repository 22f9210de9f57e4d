func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %q = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:3>>
  %r = stablehlo.uniform_quantize %q : (tensor<4x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<4x!quant.uniform<i8<-127:127>:f32, 0.25:-1>>
  %a = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<ui8:f32:0, {0.5:1,0.25:2,1.0,2.0:0}>>
  %d = stablehlo.uniform_dequantize %r : (tensor<4x!quant.uniform<i8<-127:127>:f32, 0.25:-1>>) -> tensor<4xf32>
  func.return %d : tensor<4xf32>
}
