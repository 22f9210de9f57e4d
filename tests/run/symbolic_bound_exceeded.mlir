// A bounded type (#stablehlo.bounds: at most 2 rows) compiled with
// symbolic sizes: the bound is a constraint the entry checks, so 3 rows
// return 1 before any memory is touched, and shloc run names the bound.
// RUN-ARGS: --input="3x2xf32=1 2 3 4 5 6"
// ERROR: @main returned 1: the sizes are negative, overflow, exceed a bound or break a constraint of the program: 2 >= arg0_dim0 (2 vs 3)
func.func public @main(%x: tensor<?x2xf32, #stablehlo.bounds<2, ?>>) -> tensor<?x2xf32> {
  %y = stablehlo.negate %x : (tensor<?x2xf32, #stablehlo.bounds<2, ?>>) -> tensor<?x2xf32>
  return %y : tensor<?x2xf32>
}
