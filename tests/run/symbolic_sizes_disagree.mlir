// x + y requires equal sizes (spec "add" (C1)): compiled with symbolic
// sizes the two `?` are two symbols and a constraint, checked at entry, so
// inputs of 2 and 3 rows make it return 1 before it touches memory, and
// shloc run names the constraint they break.
// RUN-ARGS: --input="2xf32=1 2" --input="3xf32=1 2 3"
// ERROR: @main returned 1: the sizes are negative, overflow, exceed a bound or break a constraint of the program: arg0_dim0 == arg1_dim0 (2 vs 3)
func.func public @main(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %z = stablehlo.add %x, %y : tensor<?xf32>
  return %z : tensor<?xf32>
}
