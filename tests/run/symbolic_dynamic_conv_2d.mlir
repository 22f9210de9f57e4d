// dynamic_conv on symbolic sizes (--symbolic; tests/run.py also runs it
// specialized), 2-d NHWC, "SAME" padding computed as jax.export writes it
// from the image's sizes (get_dimension_size, jax's floor division):
// strides [2, 3], a 3x2 kernel, padding [(0, 1), (0, 1)] at 6x7.
// Written by gen_symbolic_dynamic_conv.py (numpy 1.24.2 values).
// RUN-ARGS: --symbolic
// REREAD
// RUN-ARGS: --input="1x6x7x2xf32=2 3 3 0 3 3 3 -3 0 1 -2 -1 1 2 1 -2 1 3 -2 0 -1 3 -3 0 3 0 -3 2 3 3 3 -1 2 3 1 3 1 -2 0 1 -1 1 -1 3 -2 1 -3 -3 0 0 0 0 2 0 -1 3 3 -1 -2 -2 -2 0 1 1 3 3 0 1 -3 -2 3 3 -3 0 0 1 -3 0 -1 -2 2 1 -2 2"
// RUN-ARGS: --input="3x2x2x2xf32=0 -2 1 0 0 -1 2 -2 2 -1 2 2 -2 2 -2 -1 0 1 -2 -2 -1 2 -1 0"
// OUTPUT: 1x3x3x2xf32=[[[[-15 -10][4 -10][-2 2]][[13 -4][-9 6][9 10]][[13 -3][7 -8][-2 12]]]]
func.func public @main(%a0: tensor<1x?x?x2xf32>, %a1: tensor<3x2x2x2xf32>) -> tensor<1x?x?x2xf32> {
  %v1 = stablehlo.get_dimension_size %a0, dim = 1 : (tensor<1x?x?x2xf32>) -> tensor<i32>
  %v2 = stablehlo.convert %v1 : (tensor<i32>) -> tensor<i64>
  %v3 = stablehlo.get_dimension_size %a0, dim = 2 : (tensor<1x?x?x2xf32>) -> tensor<i32>
  %v4 = stablehlo.convert %v3 : (tensor<i32>) -> tensor<i64>
  %v5 = stablehlo.constant dense<-1> : tensor<i64>
  %v6 = stablehlo.multiply %v2, %v5 : tensor<i64>
  %v7 = stablehlo.constant dense<2> : tensor<i64>
  %v8 = stablehlo.divide %v6, %v7 : tensor<i64>
  %v9 = stablehlo.remainder %v6, %v7 : tensor<i64>
  %v10 = stablehlo.sign %v6 : tensor<i64>
  %v11 = stablehlo.sign %v7 : tensor<i64>
  %v12 = stablehlo.compare  NE, %v10, %v11,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %v13 = stablehlo.constant dense<0> : tensor<i64>
  %v14 = stablehlo.compare  NE, %v9, %v13,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %v15 = stablehlo.and %v12, %v14 : tensor<i1>
  %v16 = stablehlo.constant dense<1> : tensor<i64>
  %v17 = stablehlo.subtract %v8, %v16 : tensor<i64>
  %v18 = stablehlo.select %v15, %v17, %v8 : tensor<i1>, tensor<i64>
  %v19 = stablehlo.constant dense<-1> : tensor<i64>
  %v20 = stablehlo.multiply %v18, %v19 : tensor<i64>
  %v21 = stablehlo.constant dense<1> : tensor<i64>
  %v22 = stablehlo.subtract %v20, %v21 : tensor<i64>
  %v23 = stablehlo.constant dense<2> : tensor<i64>
  %v24 = stablehlo.multiply %v22, %v23 : tensor<i64>
  %v25 = stablehlo.constant dense<3> : tensor<i64>
  %v26 = stablehlo.add %v24, %v25 : tensor<i64>
  %v27 = stablehlo.subtract %v26, %v2 : tensor<i64>
  %v28 = stablehlo.constant dense<0> : tensor<i64>
  %v29 = stablehlo.maximum %v27, %v28 : tensor<i64>
  %v30 = stablehlo.constant dense<2> : tensor<i64>
  %v31 = stablehlo.divide %v29, %v30 : tensor<i64>
  %v32 = stablehlo.remainder %v29, %v30 : tensor<i64>
  %v33 = stablehlo.sign %v29 : tensor<i64>
  %v34 = stablehlo.sign %v30 : tensor<i64>
  %v35 = stablehlo.compare  NE, %v33, %v34,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %v36 = stablehlo.constant dense<0> : tensor<i64>
  %v37 = stablehlo.compare  NE, %v32, %v36,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %v38 = stablehlo.and %v35, %v37 : tensor<i1>
  %v39 = stablehlo.constant dense<1> : tensor<i64>
  %v40 = stablehlo.subtract %v31, %v39 : tensor<i64>
  %v41 = stablehlo.select %v38, %v40, %v31 : tensor<i1>, tensor<i64>
  %v42 = stablehlo.subtract %v29, %v41 : tensor<i64>
  %v43 = stablehlo.constant dense<-1> : tensor<i64>
  %v44 = stablehlo.multiply %v4, %v43 : tensor<i64>
  %v45 = stablehlo.constant dense<3> : tensor<i64>
  %v46 = stablehlo.divide %v44, %v45 : tensor<i64>
  %v47 = stablehlo.remainder %v44, %v45 : tensor<i64>
  %v48 = stablehlo.sign %v44 : tensor<i64>
  %v49 = stablehlo.sign %v45 : tensor<i64>
  %v50 = stablehlo.compare  NE, %v48, %v49,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %v51 = stablehlo.constant dense<0> : tensor<i64>
  %v52 = stablehlo.compare  NE, %v47, %v51,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %v53 = stablehlo.and %v50, %v52 : tensor<i1>
  %v54 = stablehlo.constant dense<1> : tensor<i64>
  %v55 = stablehlo.subtract %v46, %v54 : tensor<i64>
  %v56 = stablehlo.select %v53, %v55, %v46 : tensor<i1>, tensor<i64>
  %v57 = stablehlo.constant dense<-1> : tensor<i64>
  %v58 = stablehlo.multiply %v56, %v57 : tensor<i64>
  %v59 = stablehlo.constant dense<1> : tensor<i64>
  %v60 = stablehlo.subtract %v58, %v59 : tensor<i64>
  %v61 = stablehlo.constant dense<3> : tensor<i64>
  %v62 = stablehlo.multiply %v60, %v61 : tensor<i64>
  %v63 = stablehlo.constant dense<2> : tensor<i64>
  %v64 = stablehlo.add %v62, %v63 : tensor<i64>
  %v65 = stablehlo.subtract %v64, %v4 : tensor<i64>
  %v66 = stablehlo.constant dense<0> : tensor<i64>
  %v67 = stablehlo.maximum %v65, %v66 : tensor<i64>
  %v68 = stablehlo.constant dense<2> : tensor<i64>
  %v69 = stablehlo.divide %v67, %v68 : tensor<i64>
  %v70 = stablehlo.remainder %v67, %v68 : tensor<i64>
  %v71 = stablehlo.sign %v67 : tensor<i64>
  %v72 = stablehlo.sign %v68 : tensor<i64>
  %v73 = stablehlo.compare  NE, %v71, %v72,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %v74 = stablehlo.constant dense<0> : tensor<i64>
  %v75 = stablehlo.compare  NE, %v70, %v74,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %v76 = stablehlo.and %v73, %v75 : tensor<i1>
  %v77 = stablehlo.constant dense<1> : tensor<i64>
  %v78 = stablehlo.subtract %v69, %v77 : tensor<i64>
  %v79 = stablehlo.select %v76, %v78, %v69 : tensor<i1>, tensor<i64>
  %v80 = stablehlo.subtract %v67, %v79 : tensor<i64>
  %v81 = stablehlo.convert %v41 : (tensor<i64>) -> tensor<i32>
  %v82 = stablehlo.reshape %v81 : (tensor<i32>) -> tensor<1xi32>
  %v83 = stablehlo.convert %v42 : (tensor<i64>) -> tensor<i32>
  %v84 = stablehlo.reshape %v83 : (tensor<i32>) -> tensor<1xi32>
  %v85 = stablehlo.convert %v79 : (tensor<i64>) -> tensor<i32>
  %v86 = stablehlo.reshape %v85 : (tensor<i32>) -> tensor<1xi32>
  %v87 = stablehlo.convert %v80 : (tensor<i64>) -> tensor<i32>
  %v88 = stablehlo.reshape %v87 : (tensor<i32>) -> tensor<1xi32>
  %v89 = stablehlo.concatenate %v82, %v84, %v86, %v88, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  %v90 = stablehlo.reshape %v89 : (tensor<4xi32>) -> tensor<2x2xi32>
  %v91 = "stablehlo.dynamic_conv"(%a0, %a1, %v90) {window_strides = array<i64: 2, 3>, rhs_dilation = array<i64: 1, 1>, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x?x?x2xf32>, tensor<3x2x2x2xf32>, tensor<2x2xi32>) -> tensor<1x?x?x2xf32>
  return %v91 : tensor<1x?x?x2xf32>
}
