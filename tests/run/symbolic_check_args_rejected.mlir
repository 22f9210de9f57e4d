// --check-args does not apply to an entry with symbolic sizes (its status
// 2 is a failed shape assertion): an error, not an option silently ignored.
// RUN-ARGS: --symbolic --check-args --input="2xf32=1 2"
// ERROR: @main: --check-args is not implemented for an entry with symbolic sizes
func.func public @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = stablehlo.negate %x : tensor<?xf32>
  return %y : tensor<?xf32>
}
