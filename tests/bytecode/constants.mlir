module @jit_constants attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3xf32>) -> (tensor<3xf32> {jax.result_info = "result[0]"}, tensor<3xi64> {jax.result_info = "result[1]"}, tensor<3xf64> {jax.result_info = "result[2]"}, tensor<2x3xi32> {jax.result_info = "result[3]"}, tensor<4xi1> {jax.result_info = "result[4]"}) {
    %cst = stablehlo.constant dense<[1.500000e+00, -2.250000e+00, 6.550400e+04]> : tensor<3xf16>
    %cst_0 = stablehlo.constant dense<[1.000980e-01, 3.004060e+38, -7.000000e+00]> : tensor<3xbf16>
    %c = stablehlo.constant dense<[-128, 0, 127]> : tensor<3xi8>
    %c_1 = stablehlo.constant dense<[0, 200, 255]> : tensor<3xui8>
    %c_2 = stablehlo.constant dense<[-1099511627776, 3, 4611686018427387904]> : tensor<3xi64>
    %c_3 = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
    %cst_4 = stablehlo.constant dense<[3.1415926535897931, -1.000000e-300, 1.1805916207174113E+21]> : tensor<3xf64>
    %0 = stablehlo.convert %cst : (tensor<3xf16>) -> tensor<3xf32>
    %1 = stablehlo.add %arg0, %0 : tensor<3xf32>
    %2 = stablehlo.convert %cst_0 : (tensor<3xbf16>) -> tensor<3xf32>
    %3 = stablehlo.add %1, %2 : tensor<3xf32>
    %4 = stablehlo.convert %c : (tensor<3xi8>) -> tensor<3xf32>
    %5 = stablehlo.add %3, %4 : tensor<3xf32>
    %6 = stablehlo.convert %c_1 : (tensor<3xui8>) -> tensor<3xf32>
    %7 = stablehlo.add %5, %6 : tensor<3xf32>
    %8 = stablehlo.negate %7 : tensor<3xf32>
    %9 = call @_where(%c_3, %7, %8) : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %c_5 = stablehlo.constant dense<3> : tensor<i64>
    %10 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i64>) -> tensor<3xi64>
    %11 = stablehlo.multiply %c_2, %10 : tensor<3xi64>
    %c_6 = stablehlo.constant dense<7> : tensor<i64>
    %12 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i64>) -> tensor<3xi64>
    %13 = stablehlo.add %11, %12 : tensor<3xi64>
    %cst_7 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %14 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f64>) -> tensor<3xf64>
    %15 = stablehlo.multiply %cst_4, %14 : tensor<3xf64>
    %c_8 = stablehlo.constant dense<7> : tensor<i32>
    %16 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<2x3xi32>
    %c_9 = stablehlo.constant dense<true> : tensor<i1>
    %17 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i1>) -> tensor<4xi1>
    return %9, %13, %15, %16, %17 : tensor<3xf32>, tensor<3xi64>, tensor<3xf64>, tensor<2x3xi32>, tensor<4xi1>
  }
  func.func private @_where(%arg0: tensor<3xi1>, %arg1: tensor<3xf32>, %arg2: tensor<3xf32>) -> tensor<3xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<3xi1>, tensor<3xf32>
    return %0 : tensor<3xf32>
  }
}
