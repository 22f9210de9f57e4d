// spec "scatter" (C4): update window sizes <= shape(inputs[0]). With
// symbolic sizes that is a constraint checked at entry: windows of 2 rows
// into an input of 1 row make the entry return 1 before it writes anything.
// RUN-ARGS: --symbolic --input="1x3xf32=1 2 3" --input="1x1xi32=0" --input="1x2x3xf32=1 1 1 1 1 1"
// ERROR: @main returned 1: the sizes are negative, overflow, exceed a bound or break a constraint of the program: arg0_dim0 >= 2 (1 vs 2)
func.func public @main(%x: tensor<?x3xf32>, %idx: tensor<?x1xi32>, %u: tensor<?x2x3xf32>) -> tensor<?x3xf32> {
  %s = "stablehlo.scatter"(%x, %idx, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<?x3xf32>, tensor<?x1xi32>, tensor<?x2x3xf32>) -> tensor<?x3xf32>
  return %s : tensor<?x3xf32>
}
