// scatter on symbolic sizes (--symbolic; tests/run.py also runs it
// specialized): updates whose result index is out of bounds for sizes
// known only at run time are skipped, element by element (spec
// "scatter"), and a variadic scatter applies its region to both results.
// Expected values by hand for x = [[0 1 2][3 4 5][6 7 8][9 10 11]] (b = 4),
// f = x as f32:
//   x at rows i = [1 1 9 -1] += u rows [1..] [10..] [100..] [1000..]
//     -> row 1 gets 1 + 10; rows 9 and -1 are out of bounds
//   (x + w, max(f, v)) with 2-row windows at rows j = [2 3]: window 0 on
//     rows 2, 3; window 1 on row 3 (its second row, 4, is out of bounds)
//     w = [[[1 2 3][4 5 6]] [[7 8 9][10 11 12]]]
//     v = [[[7 0 9][0 11 0]] [[20 -1 20][99 99 99]]]
// RUN-ARGS: --symbolic --input="4x3xi32=0 1 2 3 4 5 6 7 8 9 10 11" --input="4x1xi32=1 1 9 -1"
// RUN-ARGS: --input="4x3xi32=1 1 1 10 10 10 100 100 100 1000 1000 1000"
// RUN-ARGS: --input="4x3xf32=0 1 2 3 4 5 6 7 8 9 10 11" --input="2x1xi64=2 3"
// RUN-ARGS: --input="2x2x3xi32=1 2 3 4 5 6 7 8 9 10 11 12"
// RUN-ARGS: --input="2x2x3xf32=7 0 9 0 11 0 20 -1 20 99 99 99"
// OUTPUT: 4x3xi32=[[0 1 2][14 15 16][6 7 8][9 10 11]]
// OUTPUT: 4x3xi32=[[0 1 2][3 4 5][7 9 11][20 23 26]]
// OUTPUT: 4x3xf32=[[0 1 2][3 4 5][7 7 9][20 11 20]]
func.func public @main(%x: tensor<?x3xi32>, %i: tensor<?x1xi32>, %u: tensor<?x3xi32>, %f: tensor<?x3xf32>, %j: tensor<?x1xi64>, %w: tensor<?x2x3xi32>, %v: tensor<?x2x3xf32>) -> (tensor<?x3xi32>, tensor<?x3xi32>, tensor<?x3xf32>) {
  %rows = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<?x3xi32>, tensor<?x1xi32>, tensor<?x3xi32>) -> tensor<?x3xi32>
  %r:2 = "stablehlo.scatter"(%x, %f, %j, %w, %v) ({
  ^bb0(%a: tensor<i32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<f32>):
    %s = stablehlo.add %a, %c : tensor<i32>
    %m = stablehlo.maximum %b, %d : tensor<f32>
    stablehlo.return %s, %m : tensor<i32>, tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<?x3xi32>, tensor<?x3xf32>, tensor<?x1xi64>, tensor<?x2x3xi32>, tensor<?x2x3xf32>) -> (tensor<?x3xi32>, tensor<?x3xf32>)
  return %rows, %r#0, %r#1 : tensor<?x3xi32>, tensor<?x3xi32>, tensor<?x3xf32>
}
