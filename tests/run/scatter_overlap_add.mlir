// spec "scatter": overlapping windows accumulate in sequence; an update
// element whose result index is out of bounds is skipped (the second half
// of the window starting at row 3), the rest of its window still applies.
// RUN-ARGS: --input="4x3xi32=0 1 2 3 4 5 6 7 8 9 10 11" --input="3x2x3xi32=1 1 1 1 1 1 10 10 10 10 10 10 100 100 100 100 100 100"
// OUTPUT: 4x3xi32=[[0 1 2][14 15 16][17 18 19][109 110 111]]
func.func @main(%input: tensor<4x3xi32>, %updates: tensor<3x2x3xi32>) -> tensor<4x3xi32> {
  %indices = stablehlo.constant dense<[[1], [1], [3]]> : tensor<3x1xi32>
  %0 = "stablehlo.scatter"(%input, %indices, %updates) ({
  ^bb0(%cur: tensor<i32>, %upd: tensor<i32>):
    %sum = stablehlo.add %cur, %upd : tensor<i32>
    stablehlo.return %sum : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<4x3xi32>, tensor<3x1xi32>, tensor<3x2x3xi32>) -> tensor<4x3xi32>
  return %0 : tensor<4x3xi32>
}
