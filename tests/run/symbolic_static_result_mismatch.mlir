// symbolic_static_result.mlir's program called with 2 rows: the declared
// static size 3 is a constraint the entry checks (return 1 before it
// touches memory), and shloc run names it.
// RUN-ARGS: --symbolic --input="2x2xf32=1 2 3 4" --input="3x2xf32=1 1 1 1 1 1"
// ERROR: @main returned 1: the sizes are negative, overflow, exceed a bound or break a constraint of the program: arg0_dim0 == 3 (2 vs 3)
func.func public @main(%x: tensor<?x2xf32>, %y: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.add %x, %y : (tensor<?x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %1 = stablehlo.multiply %0, %0 : tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
}
