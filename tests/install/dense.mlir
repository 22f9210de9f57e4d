// One dense layer with ReLU, large enough that --threads=2 splits its
// kernel with the runtime's parallel-for (the install test links it through
// pkg-config and through CMake).
module @dense {
  func.func @main(%x: tensor<512x256xf32>, %w: tensor<256x128xf32>, %b: tensor<128xf32>) -> tensor<512x128xf32> {
    %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<512x256xf32>, tensor<256x128xf32>) -> tensor<512x128xf32>
    %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<128xf32>) -> tensor<512x128xf32>
    %z = stablehlo.add %y, %bb : tensor<512x128xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<512x128xf32>
    %r = stablehlo.maximum %z, %zero : tensor<512x128xf32>
    return %r : tensor<512x128xf32>
  }
}
