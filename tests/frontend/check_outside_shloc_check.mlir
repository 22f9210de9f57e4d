// Check ops only make sense in test programs run by `shloc check`; an
// object has no way to report them.
// ERROR: custom_call @check.expect_close is only allowed in test programs
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  stablehlo.custom_call @check.expect_close(%x, %x) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
  return %x : tensor<4xf32>
}
