func.func private @helper(%a: tensor<i64>) -> tensor<i64> {
  %one = stablehlo.constant dense<1> : tensor<i64>
  %r = stablehlo.add %a, %one : tensor<i64>
  return %r : tensor<i64>
}
func.func @main(%n: tensor<i64>, %p: tensor<i1>, %i: tensor<i32>) -> (tensor<i64>, tensor<i64>) {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %w:2 = stablehlo.while(%it = %zero, %acc = %zero) : tensor<i64>, tensor<i64>
   cond {
    %c = stablehlo.compare LT, %it, %n, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %next = func.call @helper(%it) : (tensor<i64>) -> tensor<i64>
    %s = stablehlo.add %acc, %it : tensor<i64>
    stablehlo.return %next, %s : tensor<i64>, tensor<i64>
  }
  %if = "stablehlo.if"(%p) ({
    "stablehlo.return"(%w#0) : (tensor<i64>) -> ()
  }, {
    "stablehlo.return"(%w#1) : (tensor<i64>) -> ()
  }) : (tensor<i1>) -> tensor<i64>
  %case = "stablehlo.case"(%i) ({
    stablehlo.return %zero : tensor<i64>
  }, {
    stablehlo.return %if : tensor<i64>
  }) : (tensor<i32>) -> tensor<i64>
  %t = stablehlo.tuple %case, %if : tuple<tensor<i64>, tensor<i64>>
  %g = stablehlo.get_tuple_element %t[1] : (tuple<tensor<i64>, tensor<i64>>) -> tensor<i64>
  %tok = stablehlo.after_all : !stablehlo.token
  %b:2 = stablehlo.optimization_barrier %g, %case : tensor<i64>, tensor<i64>
  func.return %b#0, %b#1 : tensor<i64>, tensor<i64>
}
