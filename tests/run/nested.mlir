// A loop nest with an `if` inside the inner loop: 3 outer iterations of 4
// inner ones; the vector doubles once per outer iteration (when j == 0).
// RUN-ARGS: --input="8xf32=1 2 3 4 5 6 7 8"
// OUTPUT: i64=12
// OUTPUT: 8xf32=[8 16 24 32 40 48 56 64]
func.func @main(%v: tensor<8xf32>) -> (tensor<i64>, tensor<8xf32>) {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %three = stablehlo.constant dense<3> : tensor<i64>
  %four = stablehlo.constant dense<4> : tensor<i64>
  %r:3 = stablehlo.while(%i = %zero, %acc = %zero, %w = %v) : tensor<i64>, tensor<i64>, tensor<8xf32>
    cond {
      %p = stablehlo.compare LT, %i, %three : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %s:3 = stablehlo.while(%j = %zero, %a2 = %acc, %w2 = %w) : tensor<i64>, tensor<i64>, tensor<8xf32>
        cond {
          %q = stablehlo.compare LT, %j, %four : (tensor<i64>, tensor<i64>) -> tensor<i1>
          stablehlo.return %q : tensor<i1>
        } do {
          %j1 = stablehlo.add %j, %one : tensor<i64>
          %a3 = stablehlo.add %a2, %one : tensor<i64>
          %odd = stablehlo.remainder %j, %four : tensor<i64>
          %isz = stablehlo.compare EQ, %odd, %zero : (tensor<i64>, tensor<i64>) -> tensor<i1>
          %w3 = "stablehlo.if"(%isz) ({
            %d = stablehlo.add %w2, %w2 : tensor<8xf32>
            stablehlo.return %d : tensor<8xf32>
          }, {
            stablehlo.return %w2 : tensor<8xf32>
          }) : (tensor<i1>) -> tensor<8xf32>
          stablehlo.return %j1, %a3, %w3 : tensor<i64>, tensor<i64>, tensor<8xf32>
        }
      %i1 = stablehlo.add %i, %one : tensor<i64>
      stablehlo.return %i1, %s#1, %s#2 : tensor<i64>, tensor<i64>, tensor<8xf32>
    }
  return %r#1, %r#2 : tensor<i64>, tensor<8xf32>
}
