// Two entry points with different element types, for the header test.
module @hdr {
  func.func public @add3(%a: tensor<2x3xi32>, %b: tensor<2x3xi32>) -> tensor<2x3xi32> {
    %0 = stablehlo.add %a, %b : tensor<2x3xi32>
    %1 = stablehlo.add %0, %b : tensor<2x3xi32>
    return %1 : tensor<2x3xi32>
  }
  func.func public @stats(%x: tensor<4xf64>) -> (tensor<f64>, tensor<4xf64>) {
    %zero = stablehlo.constant dense<0.0> : tensor<f64>
    %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4xf64>, tensor<f64>) -> tensor<f64>
    %n = stablehlo.negate %x : tensor<4xf64>
    return %s, %n : tensor<f64>, tensor<4xf64>
  }
  func.func private @unused(%x: tensor<f32>) -> tensor<f32> {
    return %x : tensor<f32>
  }
}
