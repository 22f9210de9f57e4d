func.func @main(%x: tensor<?x4xf32, #stablehlo.bounds<8, ?>>, %s: tensor<2xi64>) -> tensor<?x4xf32> {
  %d = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32, #stablehlo.bounds<8, ?>>) -> tensor<i32>
  %r = stablehlo.dynamic_reshape %x, %s : (tensor<?x4xf32, #stablehlo.bounds<8, ?>>, tensor<2xi64>) -> tensor<?x4xf32>
  %b = stablehlo.dynamic_broadcast_in_dim %r, %s, dims = [0, 1] : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
  %sorted:2 = "stablehlo.sort"(%b, %b) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a0: tensor<f32>, %a1: tensor<f32>, %b0: tensor<f32>, %b1: tensor<f32>):
    %c = stablehlo.compare GT, %a0, %a1, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<?x4xf32>, tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>)
  func.return %sorted#1 : tensor<?x4xf32>
}
