// ERROR: undefined_value.mlir:8:26: error: use of undefined value '%sum'
// A value used before its definition (and values of a sibling region) are errors.
func.func @main(%a: tensor<i64>) -> tensor<i64> {
  %r = "stablehlo.case"(%a) ({
    %sum = stablehlo.add %a, %a : tensor<i64>
    stablehlo.return %sum : tensor<i64>
  }, {
    stablehlo.return %a, %sum : tensor<i64>, tensor<i64>
  }) : (tensor<i64>) -> tensor<i64>
  func.return %r : tensor<i64>
}
