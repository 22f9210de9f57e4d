// real_dynamic_slice of a rank-2 operand at another size: the row start is
// data (selected from a dimension argument, as JAX exports
// x[i:i + b, 1::2] with a negative i counted from the end), the column
// start, limit and stride are constants. Expected values by hand for
// b = 2, x = [[1 2 3 4][5 6 7 8]], xx = x on top of x (4 rows), i = -3:
// start row -3 + 4 = 1, rows 1 and 2 = [5 6 7 8], [1 2 3 4], columns 1
// and 3 -> [[6 8][2 4]].
// RUN-ARGS: --symbolic --input=i64=2 --input="2x4xf32=1 2 3 4 5 6 7 8" --input="i32=-3"
// OUTPUT: 2x2xf32=[[6 8][2 4]]
func.func public @main(%b: tensor<i64>, %x: tensor<?x4xf32>, %i: tensor<i32>) -> tensor<?x2xf32> {
  %xx = stablehlo.concatenate %x, %x, dim = 0 : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %b32 = stablehlo.convert %b : (tensor<i64>) -> tensor<i32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  %rows = stablehlo.multiply %b32, %two : tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %neg = stablehlo.compare LT, %i, %zero, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %wrapped = stablehlo.add %i, %rows : tensor<i32>
  %row = stablehlo.select %neg, %wrapped, %i : tensor<i1>, tensor<i32>
  %row1 = stablehlo.reshape %row : (tensor<i32>) -> tensor<1xi32>
  %c1 = stablehlo.constant dense<1> : tensor<1xi32>
  %start = stablehlo.concatenate %row1, %c1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %b1 = stablehlo.reshape %b32 : (tensor<i32>) -> tensor<1xi32>
  %c4 = stablehlo.constant dense<4> : tensor<1xi32>
  %len = stablehlo.concatenate %b1, %c4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %limit0 = stablehlo.add %start, %len : tensor<2xi32>
  %c0 = stablehlo.constant dense<[0, -1]> : tensor<2xi32>
  %limit = stablehlo.add %limit0, %c0 : tensor<2xi32>
  %strides = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %s = stablehlo.real_dynamic_slice %xx, %start, %limit, %strides : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
  return %s : tensor<?x2xf32>
}
