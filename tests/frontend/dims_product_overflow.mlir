// ERROR: dims_product_overflow.mlir:4:39: error: tensor has more than 2^58 elements
// Each dimension is fine, their product (2^64) is not: it is reported at the
// dimension that makes it too large, before any byte size is computed.
func.func @main(%a: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  func.return %a : tensor<4294967296x4294967296xf32>
}
