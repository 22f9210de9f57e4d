// Quantized arguments and results are passed as their storage integers
// (passes/quant.c). Elementwise ops and compare are dequantize_op_quantize;
// while, gather and select move storage integers.
// Expected values by hand: a = [1 3 -128 127] with scale 0.5, zero point -1
// is [1 2 -63.5 64]; b quantizes to [1 -5 127 -128] (clamped), i.e.
// [1 -2 64 -63.5]; the sum [2 0 0.5 0.5] in scale 0.25, zero point 3 is
// [11 3 5 5]. The loop doubles b's [1 -2 64 -63.5] three times, quantizing
// each time (x / 0.5 - 1, clamped to [-128, 127]): [15 -33 127 -128]. The
// gather takes a[3], a[0]; the select a where p, b's storage elsewhere.
// RUN-ARGS: --input="4xi8=1 3 -128 127" --input="4xf32=1 -2.2 100 -100" --input="4xi1=1 0 1 0"
// OUTPUT: 4xi8=[11 3 5 5]
// OUTPUT: 4xf32=[2 0 0.5 0.5]
// OUTPUT: 4xi1=[0 1 0 1]
// OUTPUT: 4xi8=[15 -33 127 -128]
// OUTPUT: 2xi8=[127 1]
// OUTPUT: 4xi8=[1 -5 -128 -128]
func.func @main(%a: tensor<4x!quant.uniform<i8:f32, 0.5:-1>>, %b: tensor<4xf32>, %p: tensor<4xi1>)
    -> (tensor<4x!quant.uniform<i8:f32, 0.25:3>>, tensor<4xf32>, tensor<4xi1>,
        tensor<4x!quant.uniform<i8:f32, 0.5:-1>>, tensor<2x!quant.uniform<i8:f32, 0.5:-1>>,
        tensor<4x!quant.uniform<i8:f32, 0.5:-1>>) {
  %qb = stablehlo.uniform_quantize %b : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-1>>
  %s = stablehlo.add %a, %qb : (tensor<4x!quant.uniform<i8:f32, 0.5:-1>>, tensor<4x!quant.uniform<i8:f32, 0.5:-1>>) -> tensor<4x!quant.uniform<i8:f32, 0.25:3>>
  %d = stablehlo.uniform_dequantize %s : (tensor<4x!quant.uniform<i8:f32, 0.25:3>>) -> tensor<4xf32>
  %c = stablehlo.compare GT, %a, %qb, FLOAT : (tensor<4x!quant.uniform<i8:f32, 0.5:-1>>, tensor<4x!quant.uniform<i8:f32, 0.5:-1>>) -> tensor<4xi1>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %n = stablehlo.constant dense<3> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %acc = %qb) : tensor<i32>, tensor<4x!quant.uniform<i8:f32, 0.5:-1>>
    cond {
      %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %twice = stablehlo.add %acc, %acc : (tensor<4x!quant.uniform<i8:f32, 0.5:-1>>, tensor<4x!quant.uniform<i8:f32, 0.5:-1>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-1>>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next, %twice : tensor<i32>, tensor<4x!quant.uniform<i8:f32, 0.5:-1>>
    }
  %idx = stablehlo.constant dense<[[3], [0]]> : tensor<2x1xi32>
  %g = "stablehlo.gather"(%a, %idx) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>}> : (tensor<4x!quant.uniform<i8:f32, 0.5:-1>>, tensor<2x1xi32>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-1>>
  %sel = stablehlo.select %p, %a, %qb : (tensor<4xi1>, tensor<4x!quant.uniform<i8:f32, 0.5:-1>>, tensor<4x!quant.uniform<i8:f32, 0.5:-1>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-1>>
  return %s, %d, %c, %r#1, %g, %sel : tensor<4x!quant.uniform<i8:f32, 0.25:3>>, tensor<4xf32>, tensor<4xi1>, tensor<4x!quant.uniform<i8:f32, 0.5:-1>>, tensor<2x!quant.uniform<i8:f32, 0.5:-1>>, tensor<4x!quant.uniform<i8:f32, 0.5:-1>>
}
