#dims = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>
module attributes {mhlo.num_partitions = 1 : i32, jax.uses_shape_polymorphism = false} {
  func.func public @main(%arg0: tensor<4x3xf32> {jax.arg_info = "x", mhlo.sharding = "{replicated}"}, %arg1: tensor<2x1xi32>) -> (tensor<2x3xf32> {jax.result_info = ""}) {
    %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #dims, slice_sizes = array<i64: 1, 3>, indices_are_sorted = false}> : (tensor<4x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
    %1 = "stablehlo.transpose"(%0) {permutation = dense<[0, 1]> : tensor<2xi64>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %2 = "stablehlo.scatter"(%arg0, %arg1, %1) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = true}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<4x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
    %3 = "stablehlo.slice"(%2) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 2, 3>, strides = array<i64: 1, 1>}> : (tensor<4x3xf32>) -> tensor<2x3xf32>
    %4 = "stablehlo.custom_call"(%3) {call_target_name = "foo", has_side_effect = true, backend_config = "", api_version = 2 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%4) : (tensor<2x3xf32>) -> () loc(#loc3)
  } loc(#loc1)
} loc(#loc)
