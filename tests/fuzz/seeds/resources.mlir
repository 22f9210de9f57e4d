module @weights {
  func.func @main(%x: tensor<2xi32>) -> tensor<2xi32> {
    %w = stablehlo.constant dense_resource<w0> : tensor<2xi32>
    %s = stablehlo.constant dense_resource<"splat one"> : tensor<2xi32>
    %e = stablehlo.constant dense_resource<__elided__> : tensor<2xi32>
    %a = stablehlo.add %x, %w : tensor<2xi32>
    %b = stablehlo.multiply %a, %s : tensor<2xi32>
    %c = stablehlo.subtract %b, %e : tensor<2xi32>
    func.return %c : tensor<2xi32>
  }
}
{-#
  dialect_resources: {
    builtin: {
      w0: "0x040000000100000002000000",
      "splat one": "0x0400000001000000"
    }
  },
  external_resources: {
    mlir_reproducer: { pipeline: "builtin.module()", disable_threading: false }
  }
#-}
