// A while loop that swaps two slots and returns an outer value and a
// constant from its body: x, y = y, x*x three times.
// RUN-ARGS: --input="4xf32=1 2 3 4" --input="4xf32=0.5 1 1.5 2"
// OUTPUT: 4xf32=[0.25 1 2.25 4]
// OUTPUT: 4xf32=[1 16 81 256]
// OUTPUT: 4xf32=[1.5 3 4.5 6]
// OUTPUT: 4xf32=[7 7 7 7]
// OUTPUT: i64=3
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<i64>) {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %three = stablehlo.constant dense<3> : tensor<i64>
  %c = stablehlo.constant dense<7.0> : tensor<4xf32>
  %outer = stablehlo.add %a, %b : tensor<4xf32>
  %r:5 = stablehlo.while(%i = %zero, %x = %a, %y = %b, %o = %c, %k = %c) : tensor<i64>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
    cond {
      %p = stablehlo.compare LT, %i, %three : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %n = stablehlo.add %i, %one : tensor<i64>
      %x2 = stablehlo.multiply %x, %x : tensor<4xf32>
      stablehlo.return %n, %y, %x2, %outer, %c : tensor<i64>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
    }
  return %r#1, %r#2, %r#3, %r#4, %r#0 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<i64>
}
