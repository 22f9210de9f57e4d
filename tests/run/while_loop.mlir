// A loop that sums 1..10 into an accumulator.
// OUTPUT: i64=55
func.func @main() -> tensor<i64> {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %ten = stablehlo.constant dense<10> : tensor<i64>
  %r:2 = stablehlo.while(%i = %one, %acc = %zero) : tensor<i64>, tensor<i64>
    cond {
      %c = stablehlo.compare LE, %i, %ten : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %a = stablehlo.add %acc, %i : tensor<i64>
      %n = stablehlo.add %i, %one : tensor<i64>
      stablehlo.return %n, %a : tensor<i64>, tensor<i64>
    }
  return %r#1 : tensor<i64>
}
