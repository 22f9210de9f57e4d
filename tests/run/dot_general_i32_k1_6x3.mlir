// A batched i32 dot_general with contraction size 1, wrong at -O3 before
// the SLP vectorizer was switched off (codegen/target.c: LLVM 19's SLP
// builds wrong shuffles once the tiny loops are fully unrolled). Found by
// tests/oracle/fuzz.py (seed 1000796); expected values: XLA CPU on the same
// program and inputs, checked with numpy.einsum('bmk,bkn->bmn').
// RUN-ARGS: --input="6x3x1xi32=5 -10 9 3 -9 8 -3 10 -9 6 3 -1 -1 10 -3 4 6 -4"
// RUN-ARGS: --input="6x1x3xi32=4 -10 -3 6 -4 -10 -4 10 -9 -4 -10 -7 -10 10 -9 -3 -6 1"
// OUTPUT: 6x3x3xi32=[[[20 -50 -15][-40 100 30][36 -90 -27]][[18 -12 -30][-54 36 90][48 -32 -80]][[12 -30 27][-40 100 -90][36 -90 81]][[-24 -60 -42][-12 -30 -21][4 10 7]][[10 -10 9][-100 100 -90][30 -30 27]][[-12 -24 4][-18 -36 6][12 24 -4]]]
func.func @main(%v13: tensor<6x3x1xi32>, %v14: tensor<6x1x3xi32>) -> (tensor<6x3x3xi32>) {
    %v15 = "stablehlo.dot_general"(%v13, %v14) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>} : (tensor<6x3x1xi32>, tensor<6x1x3xi32>) -> tensor<6x3x3xi32>
    "func.return"(%v15) : (tensor<6x3x3xi32>) -> ()
}
