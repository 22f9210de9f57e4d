// Found by fuzz_pipeline: with a check op in a function whose name is
// longer than about 85 characters, the name of the expected-value global
// was cut before its counter, every candidate name was taken, and codegen
// looped forever (`shloc check` timed out).
// RUN-CMD: check
// OUTPUT: 1 passed, 0 failed
func.func @and_op_test_ui8_with_a_very_long_name_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx() {
  %0 = stablehlo.constant dense<[0, 127, 255]> : tensor<3xui8>
  %1 = stablehlo.constant dense<255> : tensor<3xui8>
  %2 = stablehlo.and %0, %1 : tensor<3xui8>
  check.expect_eq_const %2, dense<[0, 127, 255]> : tensor<3xui8>
  func.return
}
