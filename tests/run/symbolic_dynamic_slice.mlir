// dynamic_slice and dynamic_update_slice on symbolic sizes (--symbolic;
// tests/run.py also runs it specialized): starts clamped per the spec
// (adjusted_start_indices = clamp(0, start, shape(operand) - sizes)).
// Expected values by hand for x = [[1 2 3] [4 5 6] [7 8 9]]: the 2x2 slice
// at (5, 1) starts at (1, 1): [[5 6] [8 9]]; u = [[10] [20]] written at
// (-1, 5) lands at (0, 2).
// RUN-ARGS: --symbolic --input="3x3xi32=1 2 3 4 5 6 7 8 9" --input="2x1xi32=10 20" --input="i32=5" --input="i32=1" --input="i32=-1"
// OUTPUT: 2x2xi32=[[5 6][8 9]]
// OUTPUT: 3x3xi32=[[1 2 10][4 5 20][7 8 9]]
func.func public @main(%x: tensor<?x3xi32>, %u: tensor<?x1xi32>, %i: tensor<i32>, %j: tensor<i32>, %k: tensor<i32>) -> (tensor<2x2xi32>, tensor<?x3xi32>) {
  %s = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 2] : (tensor<?x3xi32>, tensor<i32>, tensor<i32>) -> tensor<2x2xi32>
  %d = stablehlo.dynamic_update_slice %x, %u, %k, %i : (tensor<?x3xi32>, tensor<?x1xi32>, tensor<i32>, tensor<i32>) -> tensor<?x3xi32>
  return %s, %d : tensor<2x2xi32>, tensor<?x3xi32>
}
