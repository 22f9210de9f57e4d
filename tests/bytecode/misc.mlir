module @jit_misc attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x6xf32>, %arg1: tensor<7xf32>) -> (tensor<5x4xf32> {jax.result_info = "result[0]"}, tensor<7xf32> {jax.result_info = "result[1]"}, tensor<2x6xf32> {jax.result_info = "result[2]"}, tensor<3xf32> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<2x6xf32>) -> tensor<6x2xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x2xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<6x2xf32>
    %3 = stablehlo.concatenate %0, %2, dim = 1 : (tensor<6x2xf32>, tensor<6x2xf32>) -> tensor<6x4xf32>
    %4 = stablehlo.slice %3 [1:5, 0:4:2] : (tensor<6x4xf32>) -> tensor<4x2xf32>
    %cst_0 = stablehlo.constant dense<3.000000e+00> : tensor<f64>
    %5 = call @_pad(%4, %cst_0) : (tensor<4x2xf32>, tensor<f64>) -> tensor<5x4xf32>
    %6 = call @sort(%arg1) : (tensor<7xf32>) -> tensor<7xf32>
    %cst_1 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x6xf32>
    %8 = stablehlo.compare GT, %arg0, %7, FLOAT : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xi1>
    %cst_2 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x6xf32>
    %10 = stablehlo.multiply %arg0, %9 : tensor<2x6xf32>
    %11 = stablehlo.floor %10 : tensor<2x6xf32>
    %12 = call @_where(%8, %arg0, %11) : (tensor<2x6xi1>, tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>
    %c = stablehlo.constant dense<2> : tensor<i64>
    %13 = stablehlo.dynamic_slice %arg1, %c, sizes = [3] : (tensor<7xf32>, tensor<i64>) -> tensor<3xf32>
    return %5, %6, %12, %13 : tensor<5x4xf32>, tensor<7xf32>, tensor<2x6xf32>, tensor<3xf32>
  }
  func.func private @_pad(%arg0: tensor<4x2xf32>, %arg1: tensor<f64>) -> tensor<5x4xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.pad %arg0, %0, low = [1, 0], high = [0, 2], interior = [0, 0] : (tensor<4x2xf32>, tensor<f32>) -> tensor<5x4xf32>
    return %1 : tensor<5x4xf32>
  }
  func.func private @sort(%arg0: tensor<7xf32>) -> tensor<7xf32> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %1 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.select %1, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %4 = stablehlo.select %3, %cst_1, %2 : tensor<i1>, tensor<f32>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %5 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %6 = stablehlo.select %5, %cst_3, %arg2 : tensor<i1>, tensor<f32>
      %7 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %8 = stablehlo.select %7, %cst_4, %6 : tensor<i1>, tensor<f32>
      %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    }) : (tensor<7xf32>) -> tensor<7xf32>
    return %0 : tensor<7xf32>
  }
  func.func private @_where(%arg0: tensor<2x6xi1>, %arg1: tensor<2x6xf32>, %arg2: tensor<2x6xf32>) -> tensor<2x6xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<2x6xi1>, tensor<2x6xf32>
    return %0 : tensor<2x6xf32>
  }
}
