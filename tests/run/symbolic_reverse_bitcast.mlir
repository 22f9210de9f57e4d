// reverse and bitcast_convert on a symbolic batch (--symbolic; tests/run.py
// also runs it specialized). Expected values by hand for x = [[1 2 3]
// [4 5 6]]: reversed along both dimensions and along 0; f = [1 -2] as i16
// pairs, low half first (1.0 = 0x3F800000, -2.0 = 0xC0000000), and joined
// back into f32; and the same width (i32 -> f32 bits of 1.0 and -2.0).
// RUN-ARGS: --symbolic --input="2x3xi32=1 2 3 4 5 6" --input="2xf32=1 -2" --input="2xi32=1065353216 -1073741824"
// OUTPUT: 2x3xi32=[[6 5 4][3 2 1]]
// OUTPUT: 2x3xi32=[[4 5 6][1 2 3]]
// OUTPUT: 2x2xi16=[[0 16256][0 -16384]]
// OUTPUT: 2xf32=[1 -2]
// OUTPUT: 2xf32=[1 -2]
func.func public @main(%x: tensor<?x3xi32>, %f: tensor<?xf32>, %i: tensor<?xi32>) -> (tensor<?x3xi32>, tensor<?x3xi32>, tensor<?x2xi16>, tensor<?xf32>, tensor<?xf32>) {
  %r = stablehlo.reverse %x, dims = [0, 1] : tensor<?x3xi32>
  %r0 = stablehlo.reverse %x, dims = [0] : tensor<?x3xi32>
  %h = stablehlo.bitcast_convert %f : (tensor<?xf32>) -> tensor<?x2xi16>
  %j = stablehlo.bitcast_convert %h : (tensor<?x2xi16>) -> tensor<?xf32>
  %s = stablehlo.bitcast_convert %i : (tensor<?xi32>) -> tensor<?xf32>
  return %r, %r0, %h, %j, %s : tensor<?x3xi32>, tensor<?x3xi32>, tensor<?x2xi16>, tensor<?xf32>, tensor<?xf32>
}
