// A sort whose comparator orders floats by their bits as signed integers
// (bitcast_convert inside the comparator, as jnp.nanquantile exports), on a
// symbolic length (--symbolic; tests/run.py also runs it specialized).
// Expected values by hand: the bits of -1 (0xBF800000) are less than those
// of -2 (0xC0000000) as signed integers, both less than any positive
// float's, and positive floats' bits increase with the value.
// RUN-ARGS: --symbolic --input="5xf32=1.5 -2 0.5 3 -1"
// OUTPUT: 5xf32=[-1 -2 0.5 1.5 3]
func.func public @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %s = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ia = stablehlo.bitcast_convert %a : (tensor<f32>) -> tensor<i32>
    %ib = stablehlo.bitcast_convert %b : (tensor<f32>) -> tensor<i32>
    %lt = stablehlo.compare LT, %ia, %ib, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<?xf32>) -> tensor<?xf32>
  return %s : tensor<?xf32>
}
