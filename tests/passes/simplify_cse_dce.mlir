// simplify: the two equal constants merge (CSE by their bytes), then the
// two multiplies by them; the reshape to the same type is an identity; the
// unused exponential is dead. One constant, one multiply and the add stay.
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c1 = stablehlo.constant dense<2.0> : tensor<8xf32>
  %c2 = stablehlo.constant dense<2.0> : tensor<8xf32>
  %a1 = stablehlo.multiply %x, %c1 : tensor<8xf32>
  %a2 = stablehlo.multiply %x, %c2 : tensor<8xf32>
  %same = stablehlo.reshape %a2 : (tensor<8xf32>) -> tensor<8xf32>
  %dead = stablehlo.exponential %x : tensor<8xf32>
  %s = stablehlo.add %a1, %same : tensor<8xf32>
  return %s : tensor<8xf32>
}
