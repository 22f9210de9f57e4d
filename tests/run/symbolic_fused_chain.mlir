// An elementwise chain on a symbolic batch (x * 2 + bias - 1, then max 0),
// which codegen/dyndims.c computes in one loop; its square fused into a
// reduce over the batch; a convert and negate of it, fused too.
// Written by gen_symbolic_dot.py (numpy 1.24.2 values).
// RUN-ARGS: --symbolic
// RUN-ARGS: --input="5x37xf32=2 2 -3 -2 0 0 2 -1 -3 -2 0 -1 3 -1 1 1 -3 2 -3 -3 1 -2 -1 1 -2 -3 1 3 1 2 -1 -3 1 0 2 1 0 -3 1 -2 0 -2 1 0 -1 0 -3 0 2 3 -2 2 -1 -1 2 -2 -2 -1 1 3 -2 -1 3 3 2 0 2 -2 -2 1 -2 1 -2 0 2 -2 0 1 -2 0 2 1 1 0 3 -3 0 3 -1 -3 3 -1 -3 -2 3 -1 -3 1 -3 0 1 2 -3 0 0 2 -3 -1 -1 0 2 0 2 -3 -1 -2 1 -3 -1 -2 3 -3 1 -1 3 -1 -3 1 -2 2 2 -1 0 1 -2 0 3 -2 0 -2 2 0 2 2 3 1 0 1 -2 2 -2 1 2 -2 -2 0 -3 0 -2 -3 -3 -1 0 -1 -2 -3 0 0 1 0 -1 -3 1 -2 -3 3 0 0 -2 -2 0 3 -3 0 -3"
// RUN-ARGS: --input="37xf32=1 3 3 0 0 0 -2 -3 1 -3 3 2 -1 3 1 0 3 -1 -2 -1 2 1 0 -1 0 3 3 -1 2 3 -3 -1 -1 0 1 -3 2"
// OUTPUT: 5x37xf32=[[4 6 0 0 0 0 1 0 0 0 2 0 4 0 2 1 0 2 0 0 3 0 0 0 0 0 4 4 3 6 0 0 0 0 4 0 1][0 4 0 0 0 1 0 0 0 0 2 5 4 0 4 0 0 2 0 0 0 2 5 0 0 8 8 2 1 6 0 0 0 0 2 0 1][4 0 2 1 0 0 1 0 2 0 8 0 0 8 0 0 8 0 0 0 7 0 0 0 0 2 4 2 0 2 0 2 0 0 0 0 5][0 6 0 0 0 1 0 0 0 2 0 3 0 8 0 0 4 0 1 2 0 0 1 0 0 8 0 0 0 6 0 2 2 5 2 0 3][0 6 0 1 3 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 3 0 0 0 1 0 0 4 1 2 0 0 0 5 0 0 0]]
// OUTPUT: 37xf32=[32 124 4 2 9 2 2 0 4 4 72 34 32 128 20 1 80 8 1 4 67 4 26 0 1 132 96 40 11 116 0 8 4 50 24 0 36]
// OUTPUT: 5x37xi32=[[-4 -6 0 0 0 0 -1 0 0 0 -2 0 -4 0 -2 -1 0 -2 0 0 -3 0 0 0 0 0 -4 -4 -3 -6 0 0 0 0 -4 0 -1][0 -4 0 0 0 -1 0 0 0 0 -2 -5 -4 0 -4 0 0 -2 0 0 0 -2 -5 0 0 -8 -8 -2 -1 -6 0 0 0 0 -2 0 -1][-4 0 -2 -1 0 0 -1 0 -2 0 -8 0 0 -8 0 0 -8 0 0 0 -7 0 0 0 0 -2 -4 -2 0 -2 0 -2 0 0 0 0 -5][0 -6 0 0 0 -1 0 0 0 -2 0 -3 0 -8 0 0 -4 0 -1 -2 0 0 -1 0 0 -8 0 0 0 -6 0 -2 -2 -5 -2 0 -3][0 -6 0 -1 -3 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 -3 0 0 0 -1 0 0 -4 -1 -2 0 0 0 -5 0 0 0]]
func.func public @main(%a0: tensor<?x37xf32>, %a1: tensor<37xf32>) -> (tensor<?x37xf32>, tensor<37xf32>, tensor<?x37xi32>) {
  %v1 = stablehlo.get_dimension_size %a0, dim = 0 : (tensor<?x37xf32>) -> tensor<i32>
  %v2 = stablehlo.reshape %v1 : (tensor<i32>) -> tensor<1xi32>
  %v3 = stablehlo.constant dense<37> : tensor<1xi32>
  %v4 = stablehlo.concatenate %v2, %v3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %v5 = stablehlo.dynamic_broadcast_in_dim %a1, %v4, dims = [1] : (tensor<37xf32>, tensor<2xi32>) -> tensor<?x37xf32>
  %v6 = stablehlo.constant dense<2.0> : tensor<f32>
  %v7 = stablehlo.dynamic_broadcast_in_dim %v6, %v4, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x37xf32>
  %v8 = stablehlo.multiply %a0, %v7 : tensor<?x37xf32>
  %v9 = stablehlo.add %v8, %v5 : tensor<?x37xf32>
  %v10 = stablehlo.constant dense<1.0> : tensor<f32>
  %v11 = stablehlo.dynamic_broadcast_in_dim %v10, %v4, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x37xf32>
  %v12 = stablehlo.subtract %v9, %v11 : tensor<?x37xf32>
  %v13 = stablehlo.constant dense<0.0> : tensor<f32>
  %v14 = stablehlo.dynamic_broadcast_in_dim %v13, %v4, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x37xf32>
  %v15 = stablehlo.maximum %v12, %v14 : tensor<?x37xf32>
  %v16 = stablehlo.multiply %v15, %v15 : tensor<?x37xf32>
  %v17 = stablehlo.constant dense<0.0> : tensor<f32>
  %v18 = stablehlo.reduce(%v16 init: %v17) applies stablehlo.add across dimensions = [0] : (tensor<?x37xf32>, tensor<f32>) -> tensor<37xf32>
  %v19 = stablehlo.convert %v15 : (tensor<?x37xf32>) -> tensor<?x37xi32>
  %v20 = stablehlo.negate %v19 : tensor<?x37xi32>
  return %v15, %v18, %v20 : tensor<?x37xf32>, tensor<37xf32>, tensor<?x37xi32>
}
