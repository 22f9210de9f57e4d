// Specialized (--specialize: to the inputs' shapes), a size above the
// bound of its type (#stablehlo.bounds: at most 2 rows) is a compile error
// (tests/run/symbolic_bound_exceeded.mlir: the same at run time).
// RUN-ARGS: --specialize --input="3x2xf32=1 2 3 4 5 6"
// ERROR: --input-shapes: size 0 of argument x is 3, above its bound 2
func.func public @main(%x: tensor<?x2xf32, #stablehlo.bounds<2, ?>>) -> tensor<?x2xf32> {
  %y = stablehlo.negate %x : (tensor<?x2xf32, #stablehlo.bounds<2, ?>>) -> tensor<?x2xf32>
  return %y : tensor<?x2xf32>
}
