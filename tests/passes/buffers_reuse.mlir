// The arena (docs/passes.md "buffers"), without fusion (-O0) so that every
// op is a kernel with a buffer: intervals are closed, so a kernel's output
// never shares bytes with its inputs; a temp reuses the bytes of temps that
// died before it (%b reuses none: %a is its input; %c takes %a's bytes, %d
// %b's); %c lives until %f, so %e cannot take its bytes; the last value is
// written directly into the result buffer.
// ARGS: -O0
func.func @main(%x: tensor<256xf32>) -> tensor<256xf32> {
  %a = stablehlo.exponential %x : tensor<256xf32>
  %b = stablehlo.log %a : tensor<256xf32>
  %c = stablehlo.tanh %b : tensor<256xf32>
  %d = stablehlo.sine %c : tensor<256xf32>
  %e = stablehlo.cosine %d : tensor<256xf32>
  %f = stablehlo.add %e, %c : tensor<256xf32>
  return %f : tensor<256xf32>
}
