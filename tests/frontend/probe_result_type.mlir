// ERROR: probe_result_type.mlir:5:8: error: interpreter.probe: inferred type 'tensor<2xf32>' is incompatible with result type 'tensor<3xf32>' (result = operand)
// interpreter.probe records its operand and returns it: the result has the
// operand's type.
func.func @main(%x: tensor<2xf32>) -> tensor<3xf32> {
  %0 = "interpreter.probe"(%x) {probe_id = "p"} : (tensor<2xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
