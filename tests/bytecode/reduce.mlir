module @jit_reduce attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xf32>, %arg1: tensor<7xi32>) -> (tensor<3xf32> {jax.result_info = "result[0]"}, tensor<4xi32> {jax.result_info = "result[1]"}, tensor<i32> {jax.result_info = "result[2]"}, tensor<7xi32> {jax.result_info = "result[3]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<3xf32>
    %1 = call @argmax(%arg0) : (tensor<3x4xf32>) -> tensor<4xi64>
    %2 = stablehlo.convert %1 : (tensor<4xi64>) -> tensor<4xi32>
    %c = stablehlo.constant dense<-2147483648> : tensor<i32>
    %3 = stablehlo.reduce(%arg1 init: %c) applies stablehlo.maximum across dimensions = [0] : (tensor<7xi32>, tensor<i32>) -> tensor<i32>
    %4 = call @cumsum(%arg1) : (tensor<7xi32>) -> tensor<7xi32>
    return %0, %2, %3, %4 : tensor<3xf32>, tensor<4xi32>, tensor<i32>, tensor<7xi32>
  }
  func.func private @argmax(%arg0: tensor<3x4xf32>) -> tensor<4xi64> {
    %0 = stablehlo.iota dim = 0 : tensor<3x4xi64>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [0] : (tensor<3x4xf32>, tensor<3x4xi64>, tensor<f32>, tensor<i64>) -> (tensor<4xf32>, tensor<4xi64>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i64>, %arg4: tensor<i64>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i64>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i64>
    }
    return %1#1 : tensor<4xi64>
  }
  func.func private @cumsum(%arg0: tensor<7xi32>) -> tensor<7xi32> {
    %0 = call @cumsum_0(%arg0) : (tensor<7xi32>) -> tensor<7xi32>
    return %0 : tensor<7xi32>
  }
  func.func private @cumsum_0(%arg0: tensor<7xi32>) -> tensor<7xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1>, padding = dense<[[6, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 7>, window_strides = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<i32>
      stablehlo.return %2 : tensor<i32>
    }) : (tensor<7xi32>, tensor<i32>) -> tensor<7xi32>
    return %1 : tensor<7xi32>
  }
}
