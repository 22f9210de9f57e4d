// Loop state (docs/passes.md "buffers"): a while's results and its cond
// and body arguments share one slot per state value. Each body result
// must be its slot's own argument or a body temp; the pass inserts a copy
// (a reshape to the same type) for the others: the swapped %a and %b
// (another slot's argument) and the outer %x. The outer %x is read in
// every iteration, so nothing in the loop shares its bytes.
func.func @main(%x: tensor<4xf32>, %n: tensor<i32>) -> (tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %y = stablehlo.negate %x : tensor<4xf32>
  %r:4 = stablehlo.while(%i = %zero, %a = %x, %b = %y, %c = %y) : tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  cond {
    %k = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %k : tensor<i1>
  } do {
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %b, %a, %y : tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1, %r#2, %r#3 : tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
