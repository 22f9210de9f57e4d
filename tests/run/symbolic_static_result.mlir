// A size the program declares static stays static on the symbolic path
// (--symbolic; tests/run.py also runs it specialized): x + y with x's rows
// a symbol and the sum typed 3x2 (the entry checks rows == 3), so @main
// returns the tensor<3x2xf32> it declares. (x + 1)^2 by hand.
// RUN-ARGS: --symbolic --input="3x2xf32=1 2 3 4 5 6" --input="3x2xf32=1 1 1 1 1 1"
// OUTPUT: 3x2xf32=[[4 9][16 25][36 49]]
func.func public @main(%x: tensor<?x2xf32>, %y: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.add %x, %y : (tensor<?x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %1 = stablehlo.multiply %0, %0 : tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
}
