// Reshapes of values in memory share their operand's buffer (no copy):
// of an argument, of a temp, a chain of two, one returned, and one that
// outlives its operand's other uses.
// RUN-ARGS: --input="2x3xf32=1 2 3 4 5 6"
// OUTPUT: 3x2xf32=[[1 2][3 4][5 6]]
// OUTPUT: 6xf32=[2 4 6 8 10 12]
// OUTPUT: 2x3xf32=[[3 5 7][9 11 13]]
func.func @main(%x: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<6xf32>, tensor<2x3xf32>) {
  %a = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %d = stablehlo.add %x, %x : tensor<2x3xf32>
  %e = stablehlo.exponential %d : tensor<2x3xf32>
  %l = stablehlo.log %e : tensor<2x3xf32>
  %f = stablehlo.reshape %l : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %g = stablehlo.reshape %f : (tensor<3x2xf32>) -> tensor<6xf32>
  %one = stablehlo.constant dense<1.0> : tensor<2x3xf32>
  %h = stablehlo.reshape %g : (tensor<6xf32>) -> tensor<2x3xf32>
  %s = stablehlo.add %h, %one : tensor<2x3xf32>
  return %a, %g, %s : tensor<3x2xf32>, tensor<6xf32>, tensor<2x3xf32>
}
