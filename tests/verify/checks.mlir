// Verifier tests for the check ops of the conformance protocol.

func.func @expect_ok(%x: tensor<2xf32>, %y: tensor<2xf32>) {
  check.expect_eq %x, %y : tensor<2xf32>
  check.expect_almost_eq %x, %y, tolerance = 0.1 : tensor<2xf32>
  check.expect_eq_const %x, dense<[1.0, 2.0]> : tensor<2xf32>
  stablehlo.custom_call @check.expect_close(%x, %y) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  func.return
}

// -----

func.func @expect_eq_const_shape(%x: tensor<2xf32>) {
  // expected-error@+1 {{compares 'tensor<2xf32>' with 'tensor<3xf32>'}}
  check.expect_eq_const %x, dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  func.return
}

// -----

func.func @custom_call_check_shape(%x: tensor<2xf32>, %y: tensor<3xf32>) {
  // expected-error@+1 {{of a different shape}}
  stablehlo.custom_call @check.expect_close(%x, %y) {has_side_effect = true} : (tensor<2xf32>, tensor<3xf32>) -> ()
  func.return
}
