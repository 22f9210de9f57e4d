// Per-axis quantization (parameters broadcast along the quantization
// dimension, storage bounds <1:200>), a per-axis transpose (dequantized,
// moved, quantized again), a hybrid dot_general (float lhs, per-axis
// quantized rhs: only rhs is dequantized), a quantized `stablehlo.dot`
// with an i32 result, an f16 expressed type with a narrow range, and
// reshape/bitcast_convert of a quantized constant (storage moved as is).
// Expected values by hand:
//  - x / [0.1 0.2 0.5] + [10 0 100] per column, clamped to [1, 200]:
//    [[20 -10->1 106.6->107] [5 500->200 -100->1]]; the transpose moves them.
//  - w = [[1 2][3 4][5 6]] * [0.5 0.25] per column = [[0.5 0.5][1.5 1][2.5 1.5]];
//    x . w = [[5.75 3.45] [-100.25 -50.25]].
//  - x quantized with 0.5:1 is [[3 -3 8][0 127 -128]], i.e. [[1 -2 3.5][-0.5 63 -64.5]];
//    the constant is [[0 0.5][1 1.5][2 2.5]]; their product [[5 6.25][-66 -67]]
//    is exact in the i32 result (scale 0.25).
//  - f16 [0.5 -20 1.26 100] / 0.1 - 3 clamped to [-127, 127] is [2 -127 10 127],
//    i.e. (q + 3) * 0.1 = [0.5 -12.4 1.3 13].
// RUN-ARGS: --input="2x3xf32=1 -2 3.3 -0.5 100 -100" --input="3x2xi8=1 2 3 4 5 6" --input="4xf16=0.5 -20 1.26 100"
// OUTPUT: 2x3xui8=[[20 1 107][5 200 1]]
// OUTPUT: 3x2xui8=[[20 5][1 200][107 1]]
// OUTPUT: 2x2xf32=[[5.75 3.4499998][-100.25 -50.25]]
// OUTPUT: 2x2xf32=[[5 6.25][-66 -67]]
// OUTPUT: 4xf16=[0.5 -12.4 1.3 13]
// OUTPUT: 3x2xi8=[[1 2][3 4][5 6]]
func.func @main(%x: tensor<2x3xf32>, %w: tensor<3x2x!quant.uniform<i8:f32:1, {0.5,0.25}>>, %h: tensor<4xf16>) -> (tensor<2x3x!quant.uniform<ui8<1:200>:f32:1, {0.1:10,0.2:0,0.5:100}>>, tensor<3x2x!quant.uniform<ui8<1:200>:f32:0, {0.1:10,0.2:0,0.5:100}>>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<4xf16>, tensor<3x2xi8>) {
  %q = stablehlo.uniform_quantize %x : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<ui8<1:200>:f32:1, {0.1:10,0.2:0,0.5:100}>>
  %t = stablehlo.transpose %q, dims = [1, 0] : (tensor<2x3x!quant.uniform<ui8<1:200>:f32:1, {0.1:10,0.2:0,0.5:100}>>) -> tensor<3x2x!quant.uniform<ui8<1:200>:f32:0, {0.1:10,0.2:0,0.5:100}>>
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x2x!quant.uniform<i8:f32:1, {0.5,0.25}>>) -> tensor<2x2xf32>
  %c = stablehlo.constant() {value = dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi8>} : () -> tensor<3x2x!quant.uniform<i8:f32, 0.5:1>>
  %x2 = stablehlo.uniform_quantize %x : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32, 0.5:1>>
  %dd = "stablehlo.dot"(%x2, %c) : (tensor<2x3x!quant.uniform<i8:f32, 0.5:1>>, tensor<3x2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x2x!quant.uniform<i32:f32, 0.25>>
  %ddf = stablehlo.uniform_dequantize %dd : (tensor<2x2x!quant.uniform<i32:f32, 0.25>>) -> tensor<2x2xf32>
  %hq = stablehlo.uniform_quantize %h : (tensor<4xf16>) -> tensor<4x!quant.uniform<i8<-127:127>:f16, 0.1:-3>>
  %hd = stablehlo.uniform_dequantize %hq : (tensor<4x!quant.uniform<i8<-127:127>:f16, 0.1:-3>>) -> tensor<4xf16>
  %r = stablehlo.reshape %c : (tensor<3x2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<6x!quant.uniform<i8:f32, 0.5:1>>
  %r2 = stablehlo.reshape %r : (tensor<6x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<3x2x!quant.uniform<i8:f32, 0.5:1>>
  %b = stablehlo.bitcast_convert %r2 : (tensor<3x2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<3x2xi8>
  return %q, %t, %d, %ddf, %hd, %b : tensor<2x3x!quant.uniform<ui8<1:200>:f32:1, {0.1:10,0.2:0,0.5:100}>>, tensor<3x2x!quant.uniform<ui8<1:200>:f32:0, {0.1:10,0.2:0,0.5:100}>>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<4xf16>, tensor<3x2xi8>
}
