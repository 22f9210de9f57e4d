// spec "gather" (C21): slice_sizes <= shape(operand). With symbolic sizes
// that is a constraint checked at entry: slices of 2 rows from an operand
// of 1 row make the entry return 1 before it reads anything.
// RUN-ARGS: --symbolic --input="1x3xf32=1 2 3" --input="2x1xi32=0 0"
// ERROR: @main returned 1: the sizes are negative, overflow, exceed a bound or break a constraint of the program: arg0_dim0 >= 2 (1 vs 2)
func.func public @main(%x: tensor<?x3xf32>, %idx: tensor<?x1xi32>) -> tensor<?x2x3xf32> {
  %g = "stablehlo.gather"(%x, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2, 3>} : (tensor<?x3xf32>, tensor<?x1xi32>) -> tensor<?x2x3xf32>
  return %g : tensor<?x2x3xf32>
}
