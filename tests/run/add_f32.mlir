// RUN-ARGS: --input="2x3xf32=1 2 3 4 5 6" --input="2x3xf32=0.5 0.5 0.5 0.5 0.5 -10"
// OUTPUT: 2x3xf32=[[1.5 2.5 3.5][4.5 5.5 -4]]
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.add %a, %b : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
