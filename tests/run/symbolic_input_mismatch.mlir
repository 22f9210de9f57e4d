// An input whose static size differs from the argument's type is an error
// before the call, never an out-of-bounds access.
// RUN-ARGS: --input="2x3xf32=1 2 3 4 5 6"
// ERROR: input 0: the entry takes tensor<?x2xf32>, got 2x3xf32
func.func public @main(%x: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %y = stablehlo.negate %x : tensor<?x2xf32>
  return %y : tensor<?x2xf32>
}
