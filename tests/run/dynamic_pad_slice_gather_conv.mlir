// dynamic_pad, real_dynamic_slice, dynamic_gather and dynamic_conv with
// shape operands computed from the dimension argument %b (given as an
// input: nothing in the program ties it to x's shape). Expected values by
// hand for x = [[1 2 3][4 5 6][7 8 9]], s = [1 2 3], k = [10 1]:
//   pad lo [1 0] hi [0 1]           -> a zero row on top, a zero column right
//   slice [0:b:2, 1:3]              -> rows 0 and 2, columns 1 and 2
//   gather x[:, 1:3] (slice [b, 2]) -> columns 1 and 2
//   conv s * k, padding [0, b - 2]  -> out[w] = 10 s[w] + s[w + 1] = [12 23 30]
// RUN-ARGS: --input=i64=3 --input="3x3xf32=1 2 3 4 5 6 7 8 9" --input="1x3x1xf32=1 2 3" --input="2x1x1xf32=10 1"
// OUTPUT: 4x4xf32=[[0 0 0 0][1 2 3 0][4 5 6 0][7 8 9 0]]
// OUTPUT: 2x2xf32=[[2 3][8 9]]
// OUTPUT: 3x2xf32=[[2 3][5 6][8 9]]
// OUTPUT: 1x3x1xf32=[[[12][23][30]]]
func.func public @main(%b: tensor<i64>, %x: tensor<?x3xf32>, %s: tensor<1x?x1xf32>, %k: tensor<2x1x1xf32>) -> (tensor<?x4xf32>, tensor<?x2xf32>, tensor<?x2xf32>, tensor<1x?x1xf32>) {
  %b32 = stablehlo.convert %b : (tensor<i64>) -> tensor<i32>
  %b1 = stablehlo.reshape %b32 : (tensor<i32>) -> tensor<1xi32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %lo = stablehlo.constant dense<[1, 0]> : tensor<2xi32>
  %hi = stablehlo.constant dense<[0, 1]> : tensor<2xi32>
  %in = stablehlo.constant dense<0> : tensor<2xi32>
  %p = stablehlo.dynamic_pad %x, %zero, %lo, %hi, %in : (tensor<?x3xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x4xf32>
  %start = stablehlo.constant dense<[0, 1]> : tensor<2xi32>
  %three = stablehlo.constant dense<3> : tensor<1xi32>
  %limit = stablehlo.concatenate %b1, %three, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %strides = stablehlo.constant dense<[2, 1]> : tensor<2xi32>
  %sl = stablehlo.real_dynamic_slice %x, %start, %limit, %strides : (tensor<?x3xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
  %idx = stablehlo.constant dense<[1]> : tensor<1xi64>
  %two = stablehlo.constant dense<2> : tensor<1xi32>
  %sizes = stablehlo.concatenate %b1, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %g = "stablehlo.dynamic_gather"(%x, %idx, %sizes) {dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [1]>, indices_are_sorted = true} : (tensor<?x3xf32>, tensor<1xi64>, tensor<2xi32>) -> tensor<?x2xf32>
  %c2 = stablehlo.constant dense<2> : tensor<i32>
  %bm2 = stablehlo.subtract %b32, %c2 : tensor<i32>
  %bm2r = stablehlo.reshape %bm2 : (tensor<i32>) -> tensor<1xi32>
  %z1 = stablehlo.constant dense<0> : tensor<1xi32>
  %pad1 = stablehlo.concatenate %z1, %bm2r, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %pad = stablehlo.reshape %pad1 : (tensor<2xi32>) -> tensor<1x2xi32>
  %c = "stablehlo.dynamic_conv"(%s, %k, %pad) {batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, window_strides = array<i64: 1>} : (tensor<1x?x1xf32>, tensor<2x1x1xf32>, tensor<1x2xi32>) -> tensor<1x?x1xf32>
  return %p, %sl, %g, %c : tensor<?x4xf32>, tensor<?x2xf32>, tensor<?x2xf32>, tensor<1x?x1xf32>
}
