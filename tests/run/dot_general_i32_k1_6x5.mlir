// A batched i32 dot_general with contraction size 1, wrong at -O3 before
// the SLP vectorizer was switched off (codegen/target.c: LLVM 19's SLP
// builds wrong shuffles once the tiny loops are fully unrolled). Found by
// tests/oracle/fuzz.py (seed 3000887); expected values: XLA CPU on the same
// program and inputs, checked with numpy.einsum('bmk,bkn->bmn').
// RUN-ARGS: --input="6x5x1xi32=4 0 10 8 -3 5 1 4 4 4 3 -8 9 3 -8 -2 -8 -7 7 8 8 10 4 -8 -2 4 8 -4 -8 -8"
// RUN-ARGS: --input="6x1x3xi32=8 -6 -5 1 9 -9 9 -2 -7 -7 2 -9 2 0 -2 10 -10 -9"
// OUTPUT: 6x5x3xi32=[[[32 -24 -20][0 0 0][80 -60 -50][64 -48 -40][-24 18 15]][[5 45 -45][1 9 -9][4 36 -36][4 36 -36][4 36 -36]][[27 -6 -21][-72 16 56][81 -18 -63][27 -6 -21][-72 16 56]][[14 -4 18][56 -16 72][49 -14 63][-49 14 -63][-56 16 -72]][[16 0 -16][20 0 -20][8 0 -8][-16 0 16][-4 0 4]][[40 -40 -36][80 -80 -72][-40 40 36][-80 80 72][-80 80 72]]]
func.func @main(%v12: tensor<6x5x1xi32>, %v23: tensor<6x1x3xi32>) -> (tensor<6x5x3xi32>) {
    %v24 = "stablehlo.dot_general"(%v12, %v23) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>} : (tensor<6x5x1xi32>, tensor<6x1x3xi32>) -> tensor<6x5x3xi32>
    "func.return"(%v24) : (tensor<6x5x3xi32>) -> ()
}
