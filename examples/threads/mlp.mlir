// A two-layer perceptron over a batch of 256, large enough that the
// kernels are split across threads when compiled with --threads=N.
module @mlp {
  func.func @main(%x: tensor<256x512xf32>, %w1: tensor<512x512xf32>,
                  %w2: tensor<512x64xf32>) -> tensor<256x64xf32> {
    %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<256x512xf32>, tensor<512x512xf32>) -> tensor<256x512xf32>
    %t = stablehlo.tanh %h : tensor<256x512xf32>
    %y = stablehlo.dot_general %t, %w2, contracting_dims = [1] x [0] : (tensor<256x512xf32>, tensor<512x64xf32>) -> tensor<256x64xf32>
    %z = stablehlo.logistic %y : tensor<256x64xf32>
    return %z : tensor<256x64xf32>
  }
}
