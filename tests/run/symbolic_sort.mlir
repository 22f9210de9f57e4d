// sort on a symbolic length (--symbolic; tests/run.py also runs it
// specialized): keys and a payload of 37 x 2 sorted along dimension 0 (37
// > 16: insertion-sorted runs, then merge passes whose widths follow the
// length at run time; the stride 2 of the slices). Keys repeat, so the
// payload shows the order is stable. Expected values from numpy
// (argsort(kind='stable') along axis 0, seed 7 random keys in [0, 6)).
// RUN-ARGS: --symbolic --input="37x2xi32=5 3 4 5 3 4 5 1 0 1 1 5 5 0 2 4 0 4 0 2 4 1 2 1 4 1 5 2 2 3 3 3 3 5 4 4 4 3 2 5 2 1 5 0 5 3 0 0 2 0 0 3 5 2 4 5 4 3 2 3 1 2 2 1 5 0 0 1 5 4 5 1 4 2" --input="37x2xi32=0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73"
// OUTPUT: 37x2xi32=[[0 0][0 0][0 0][0 0][0 0][0 1][1 1][1 1][2 1][2 1][2 1][2 1][2 1][2 1][2 2][2 2][3 2][3 2][3 2][4 3][4 3][4 3][4 3][4 3][4 3][4 3][4 3][5 4][5 4][5 4][5 4][5 4][5 5][5 5][5 5][5 5][5 5]]
// OUTPUT: 37x2xi32=[[8 13][16 43][18 47][46 49][50 65][66 7][10 9][60 21][14 23][22 25][28 41][38 63][40 67][48 71][58 19][62 27][4 53][30 61][32 73][2 1][20 29][24 31][34 37][36 45][54 51][56 57][72 59][0 5][6 15][12 17][26 35][42 69][44 3][52 11][64 33][68 39][70 55]]
func.func public @main(%k: tensor<?x2xi32>, %p: tensor<?x2xi32>) -> (tensor<?x2xi32>, tensor<?x2xi32>) {
  %s:2 = "stablehlo.sort"(%k, %p) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<?x2xi32>, tensor<?x2xi32>) -> (tensor<?x2xi32>, tensor<?x2xi32>)
  return %s#0, %s#1 : tensor<?x2xi32>, tensor<?x2xi32>
}
