// Within its bound (at most 4 rows) a bounded argument runs like any `?`
// size, bound from the input at the call: 2 rows of -x.
// RUN-ARGS: --symbolic --input="2x2xf32=1 2 3 4"
// OUTPUT: 2x2xf32=[[-1 -2][-3 -4]]
func.func public @main(%x: tensor<?x2xf32, #stablehlo.type_extensions<bounds = [4, ?]>>) -> tensor<?x2xf32> {
  %y = stablehlo.negate %x : (tensor<?x2xf32, #stablehlo.type_extensions<bounds = [4, ?]>>) -> tensor<?x2xf32>
  return %y : tensor<?x2xf32>
}
