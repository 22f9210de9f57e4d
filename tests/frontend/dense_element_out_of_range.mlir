// ERROR: dense_element_out_of_range.mlir:5:27: error: dense element 1: 300 does not fit in ui8
// Integer elements must fit the element type (signless types also accept the unsigned spelling).
func.func @main() -> tensor<3xui8> {
  %0 = stablehlo.constant dense<[255, 0]> : tensor<2xui8>
  %1 = stablehlo.constant dense<[1, 300, 2]> : tensor<3xui8>
  func.return %1 : tensor<3xui8>
}
