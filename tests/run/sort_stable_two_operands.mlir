// spec "sort": both operands are permuted together by the comparator on
// the keys alone; equal keys keep their order (is_stable), which the
// second operand (positions) shows. 20 elements: insertion-sorted runs of
// 16 and a merge (codegen/sort.c).
// RUN-ARGS: --input="20xi32=3 1 2 3 1 0 2 3 1 0 5 4 4 0 2 1 3 5 0 2"
// OUTPUT: 20xi32=[0 0 0 0 1 1 1 1 2 2 2 2 3 3 3 3 4 4 5 5]
// OUTPUT: 20xi32=[5 9 13 18 1 4 8 15 2 6 14 19 0 3 7 16 11 12 10 17]
func.func @main(%keys: tensor<20xi32>) -> (tensor<20xi32>, tensor<20xi32>) {
  %pos = stablehlo.iota dim = 0 : tensor<20xi32>
  %0:2 = "stablehlo.sort"(%keys, %pos) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %pa: tensor<i32>, %pb: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<20xi32>, tensor<20xi32>) -> (tensor<20xi32>, tensor<20xi32>)
  return %0#0, %0#1 : tensor<20xi32>, tensor<20xi32>
}
