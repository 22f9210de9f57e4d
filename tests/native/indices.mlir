// Dynamic indices from the caller, for tests/native/indices.c: each entry
// reads or writes a 7x5 f32 operand at start indices the driver chooses
// (huge, negative, INT64_MIN/MAX, unsigned values above INT64_MAX).
// @rds: a real_dynamic_slice whose start is an argument and whose limit is
// start + [5, 2], strides [2, 1] (refine_shapes makes it a dynamic_slice
// of 5x2, then a strided slice).
module @idx {
  func.func public @rds(%op: tensor<7x5xf32>, %s: tensor<2xi64>) -> tensor<3x2xf32> {
    %len = stablehlo.constant dense<[5, 2]> : tensor<2xi64>
    %limit = stablehlo.add %s, %len : tensor<2xi64>
    %strides = stablehlo.constant dense<[2, 1]> : tensor<2xi64>
    %r = stablehlo.real_dynamic_slice %op, %s, %limit, %strides
        : (tensor<7x5xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<3x2xf32>
    return %r : tensor<3x2xf32>
  }
  func.func public @dslice(%op: tensor<7x5xf32>, %i: tensor<i64>, %j: tensor<i64>) -> tensor<3x2xf32> {
    %r = "stablehlo.dynamic_slice"(%op, %i, %j) {slice_sizes = array<i64: 3, 2>}
        : (tensor<7x5xf32>, tensor<i64>, tensor<i64>) -> tensor<3x2xf32>
    return %r : tensor<3x2xf32>
  }
  func.func public @dslice_u64(%op: tensor<7x5xf32>, %i: tensor<ui64>, %j: tensor<ui64>) -> tensor<3x2xf32> {
    %r = "stablehlo.dynamic_slice"(%op, %i, %j) {slice_sizes = array<i64: 3, 2>}
        : (tensor<7x5xf32>, tensor<ui64>, tensor<ui64>) -> tensor<3x2xf32>
    return %r : tensor<3x2xf32>
  }
  func.func public @dslice_i32(%op: tensor<7x5xf32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<3x2xf32> {
    %r = "stablehlo.dynamic_slice"(%op, %i, %j) {slice_sizes = array<i64: 3, 2>}
        : (tensor<7x5xf32>, tensor<i32>, tensor<i32>) -> tensor<3x2xf32>
    return %r : tensor<3x2xf32>
  }
  func.func public @dus(%op: tensor<7x5xf32>, %up: tensor<3x2xf32>, %i: tensor<i64>, %j: tensor<i64>) -> tensor<7x5xf32> {
    %r = stablehlo.dynamic_update_slice %op, %up, %i, %j
        : (tensor<7x5xf32>, tensor<3x2xf32>, tensor<i64>, tensor<i64>) -> tensor<7x5xf32>
    return %r : tensor<7x5xf32>
  }
  func.func public @gather(%op: tensor<7x5xf32>, %idx: tensor<4x2xi64>) -> tensor<4x2x3xf32> {
    %r = "stablehlo.gather"(%op, %idx) {
      dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0, 1],
                                            index_vector_dim = 1>,
      slice_sizes = array<i64: 2, 3>, indices_are_sorted = false
    } : (tensor<7x5xf32>, tensor<4x2xi64>) -> tensor<4x2x3xf32>
    return %r : tensor<4x2x3xf32>
  }
  func.func public @scatter(%op: tensor<7x5xf32>, %idx: tensor<4x2xi64>, %up: tensor<4x2x3xf32>) -> tensor<7x5xf32> {
    %r = "stablehlo.scatter"(%op, %idx, %up) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2],
                                                       scatter_dims_to_operand_dims = [0, 1],
                                                       index_vector_dim = 1>}
        : (tensor<7x5xf32>, tensor<4x2xi64>, tensor<4x2x3xf32>) -> tensor<7x5xf32>
    return %r : tensor<7x5xf32>
  }
}
