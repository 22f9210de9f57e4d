// dynamic_conv on symbolic sizes (--symbolic; tests/run.py also runs it
// specialized), 1-d, with JAX's "SAME" padding computed from the dimension
// argument n (the width) as jax writes it: ceil(n / 2) as -floor(-n / 2)
// through divide, remainder, sign, compare and select (jax's floor
// division), total = max((ceil(n / 2) - 1) * 2 + 4 - n, 0), low total // 2,
// high the rest: (1, 2) at n = 3. Stride 2, kernel 4.
// Written by gen_symbolic_dynamic_conv.py (numpy 1.24.2 values).
// RUN-ARGS: --symbolic
// REREAD
// RUN-ARGS: --input="i64=3"
// RUN-ARGS: --input="2x3x3xf32=2 -2 -3 -1 -1 2 0 -3 -1 1 2 2 3 -2 3 -3 0 -2"
// OUTPUT: 2x2x2xf32=[[[4 4][-5 -8]][[11 9][-11 -3]]]
func.func public @main(%a0: tensor<i64>, %a1: tensor<2x?x3xf32>) -> tensor<2x?x2xf32> {
  %v1 = stablehlo.constant dense<[[[-1.0, 1.0], [-1.0, 0.0], [-1.0, -2.0]], [[1.0, 0.0], [1.0, 1.0], [2.0, 0.0]], [[-1.0, 1.0], [2.0, 2.0], [2.0, 1.0]], [[-1.0, -1.0], [-2.0, -2.0], [-1.0, -1.0]]]> : tensor<4x3x2xf32>
  %v2 = stablehlo.constant dense<-1> : tensor<i64>
  %v3 = stablehlo.multiply %a0, %v2 : tensor<i64>
  %v4 = stablehlo.constant dense<2> : tensor<i64>
  %v5 = stablehlo.divide %v3, %v4 : tensor<i64>
  %v6 = stablehlo.remainder %v3, %v4 : tensor<i64>
  %v7 = stablehlo.sign %v3 : tensor<i64>
  %v8 = stablehlo.sign %v4 : tensor<i64>
  %v9 = stablehlo.compare  NE, %v7, %v8,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %v10 = stablehlo.constant dense<0> : tensor<i64>
  %v11 = stablehlo.compare  NE, %v6, %v10,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %v12 = stablehlo.and %v9, %v11 : tensor<i1>
  %v13 = stablehlo.constant dense<1> : tensor<i64>
  %v14 = stablehlo.subtract %v5, %v13 : tensor<i64>
  %v15 = stablehlo.select %v12, %v14, %v5 : tensor<i1>, tensor<i64>
  %v16 = stablehlo.constant dense<-1> : tensor<i64>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<i64>
  %v18 = stablehlo.constant dense<1> : tensor<i64>
  %v19 = stablehlo.subtract %v17, %v18 : tensor<i64>
  %v20 = stablehlo.constant dense<2> : tensor<i64>
  %v21 = stablehlo.multiply %v19, %v20 : tensor<i64>
  %v22 = stablehlo.constant dense<4> : tensor<i64>
  %v23 = stablehlo.add %v21, %v22 : tensor<i64>
  %v24 = stablehlo.subtract %v23, %a0 : tensor<i64>
  %v25 = stablehlo.constant dense<0> : tensor<i64>
  %v26 = stablehlo.maximum %v24, %v25 : tensor<i64>
  %v27 = stablehlo.constant dense<2> : tensor<i64>
  %v28 = stablehlo.divide %v26, %v27 : tensor<i64>
  %v29 = stablehlo.remainder %v26, %v27 : tensor<i64>
  %v30 = stablehlo.sign %v26 : tensor<i64>
  %v31 = stablehlo.sign %v27 : tensor<i64>
  %v32 = stablehlo.compare  NE, %v30, %v31,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %v33 = stablehlo.constant dense<0> : tensor<i64>
  %v34 = stablehlo.compare  NE, %v29, %v33,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %v35 = stablehlo.and %v32, %v34 : tensor<i1>
  %v36 = stablehlo.constant dense<1> : tensor<i64>
  %v37 = stablehlo.subtract %v28, %v36 : tensor<i64>
  %v38 = stablehlo.select %v35, %v37, %v28 : tensor<i1>, tensor<i64>
  %v39 = stablehlo.subtract %v26, %v38 : tensor<i64>
  %v40 = stablehlo.convert %v38 : (tensor<i64>) -> tensor<i32>
  %v41 = stablehlo.reshape %v40 : (tensor<i32>) -> tensor<1xi32>
  %v42 = stablehlo.convert %v39 : (tensor<i64>) -> tensor<i32>
  %v43 = stablehlo.reshape %v42 : (tensor<i32>) -> tensor<1xi32>
  %v44 = stablehlo.concatenate %v41, %v43, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %v45 = stablehlo.reshape %v44 : (tensor<2xi32>) -> tensor<1x2xi32>
  %v46 = "stablehlo.dynamic_conv"(%a1, %v1, %v45) {window_strides = array<i64: 2>, rhs_dilation = array<i64: 1>, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x?x3xf32>, tensor<4x3x2xf32>, tensor<1x2xi32>) -> tensor<2x?x2xf32>
  return %v46 : tensor<2x?x2xf32>
}
