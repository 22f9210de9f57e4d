module @jit_while_loop attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5xf32>, %arg1: tensor<i32>) -> (tensor<i32> {jax.result_info = "result[0]"}, tensor<5xf32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %arg1, %iterArg_0 = %c, %iterArg_1 = %arg0) : tensor<i32>, tensor<i32>, tensor<5xf32>
    cond {
      %1 = stablehlo.compare LT, %iterArg_0, %iterArg, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.reduce(%iterArg_1 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<f32>
      %cst_2 = stablehlo.constant dense<1.000000e+06> : tensor<f32>
      %3 = stablehlo.compare LT, %2, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.and %1, %3 : tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %c_2 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %iterArg_0, %c_2 : tensor<i32>
      %cst = stablehlo.constant dense<1.500000e+00> : tensor<f32>
      %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %3 = stablehlo.multiply %iterArg_1, %2 : tensor<5xf32>
      %4 = stablehlo.sine %iterArg_1 : tensor<5xf32>
      %5 = stablehlo.add %3, %4 : tensor<5xf32>
      stablehlo.return %iterArg, %1, %5 : tensor<i32>, tensor<i32>, tensor<5xf32>
    }
    return %0#1, %0#2 : tensor<i32>, tensor<5xf32>
  }
}
