// The example program of the StableHLO specification ("Programs"): one
// dense layer with ReLU over a 28x28 image.
module @mnist {
  func.func @main(
    %image: tensor<28x28xf32>,
    %weights: tensor<784x10xf32>,
    %bias: tensor<1x10xf32>
  ) -> tensor<1x10xf32> {
    %0 = "stablehlo.reshape"(%image) : (tensor<28x28xf32>) -> tensor<1x784xf32>
    %1 = "stablehlo.dot"(%0, %weights) : (tensor<1x784xf32>, tensor<784x10xf32>) -> tensor<1x10xf32>
    %2 = "stablehlo.add"(%1, %bias) : (tensor<1x10xf32>, tensor<1x10xf32>) -> tensor<1x10xf32>
    %3 = "stablehlo.constant"() {value = dense<0.0> : tensor<1x10xf32>} : () -> tensor<1x10xf32>
    %4 = "stablehlo.maximum"(%2, %3) : (tensor<1x10xf32>, tensor<1x10xf32>) -> tensor<1x10xf32>
    "func.return"(%4): (tensor<1x10xf32>) -> ()
  }
}
