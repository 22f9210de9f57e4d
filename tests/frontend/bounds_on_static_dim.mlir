// Only a `?` size may have a bound; a static one takes `?` (upstream's
// verifyBounds).
// ERROR: bounds_on_static_dim.mlir:4:78: error: static dimension 1 cannot have a bound
func.func @main(%x: tensor<?x4xf32, #stablehlo.type_extensions<bounds = [16, 4]>>) -> tensor<?x4xf32> {
  return %x : tensor<?x4xf32>
}
