// Input shapes the program's constraints make inconsistent: b follows from
// x (3), so the broadcast is 2x3x4 and cannot be added to y's 2x5x4.
// ARGS: --input-shapes=3x4xf32,2x5x4xf32
// ERROR: dynamic_mismatched_input_shapes.mlir:13:8: error: stablehlo.add: operands and result must have the same type: 'tensor<2x3x4xf32>', 'tensor<2x5x4xf32>'
func.func public @main(%b: tensor<i64>, %x: tensor<?x4xf32>, %y: tensor<2x?x4xf32>) -> tensor<2x?x4xf32> {
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %b32 = stablehlo.convert %b : (tensor<i64>) -> tensor<i32>
  %b1 = stablehlo.reshape %b32 : (tensor<i32>) -> tensor<1xi32>
  %two = stablehlo.constant dense<2> : tensor<1xi32>
  %four = stablehlo.constant dense<4> : tensor<1xi32>
  %s = stablehlo.concatenate %two, %b1, %four, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  %bx = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1, 2] : (tensor<?x4xf32>, tensor<3xi32>) -> tensor<2x?x4xf32>
  %r = stablehlo.add %bx, %y : tensor<2x?x4xf32>
  return %r : tensor<2x?x4xf32>
}
