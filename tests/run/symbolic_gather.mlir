// gather and dynamic_gather on symbolic sizes (--symbolic; tests/run.py
// also runs it specialized), start indices clamped to sizes known only at
// run time (spec "gather": clamp(start, 0, dim(operand) - slice_size)).
// Expected values by hand for x = [[1 2 3][4 5 6][7 8 9]] (b = 3 rows),
// idx = [2 7 -1 0], y = [[10 11 12 13][20 21 22 23][30 31 32 33]],
// k = [1 9 4294967295] (ui32):
//   rows of x at idx, clamped to [0, b - 1]      -> rows 2 2 0 0
//   dynamic_gather x[:, 2:4] with slice [b, 2]   -> start clamped to 1: columns 1 2
//   y[i, k[i]] (batching dims), k clamped to 3   -> 11 23 33 (ui32 max clamps high)
// RUN-ARGS: --symbolic --input="3x3xf32=1 2 3 4 5 6 7 8 9" --input="4x1xi32=2 7 -1 0"
// RUN-ARGS: --input="3x4xf32=10 11 12 13 20 21 22 23 30 31 32 33" --input="3x1xui32=1 9 4294967295"
// OUTPUT: 4x3xf32=[[7 8 9][7 8 9][1 2 3][1 2 3]]
// OUTPUT: 3x2xf32=[[2 3][5 6][8 9]]
// OUTPUT: 3xf32=[11 23 33]
func.func public @main(%x: tensor<?x3xf32>, %idx: tensor<?x1xi32>, %y: tensor<?x4xf32>, %k: tensor<?x1xui32>) -> (tensor<?x3xf32>, tensor<?x2xf32>, tensor<?xf32>) {
  %rows = "stablehlo.gather"(%x, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>} : (tensor<?x3xf32>, tensor<?x1xi32>) -> tensor<?x3xf32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %two = stablehlo.constant dense<2> : tensor<1xi32>
  %sizes = stablehlo.concatenate %n1, %two, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %start = stablehlo.constant dense<[2]> : tensor<1xi64>
  %cols = "stablehlo.dynamic_gather"(%x, %start, %sizes) {dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [1]>} : (tensor<?x3xf32>, tensor<1xi64>, tensor<2xi32>) -> tensor<?x2xf32>
  %diag = "stablehlo.gather"(%y, %k) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>} : (tensor<?x4xf32>, tensor<?x1xui32>) -> tensor<?xf32>
  return %rows, %cols, %diag : tensor<?x3xf32>, tensor<?x2xf32>, tensor<?xf32>
}
