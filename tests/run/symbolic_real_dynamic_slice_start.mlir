// real_dynamic_slice whose start is data (jnp.roll's form): limit = start
// + n, so the result has n elements although the start is known only when
// the op runs. Out-of-range starts are clamped into [0, 2n - span] as
// dynamic_slice clamps (codegen/dyndims.c gen_real_dynamic_slice says why),
// so nothing outside xx is read. Expected values by hand for x = [1 2 3 4]
// (n = 4), xx = [1 2 3 4 1 2 3 4]:
//   start 1, stride 1          -> xx[1:5]     = [2 3 4 1]
//   start 7, stride 1          -> start 4     = [1 2 3 4]
//   start 1, stride 2          -> xx[1], xx[3] = [2 4]
//   start -3, stride 2 (span 3) -> start 0    = [1 3]
// RUN-ARGS: --symbolic --input="4xf32=1 2 3 4" --input="i32=1" --input="i32=7" --input="i32=-3"
// OUTPUT: 4xf32=[2 3 4 1]
// OUTPUT: 4xf32=[1 2 3 4]
// OUTPUT: 2xf32=[2 4]
// OUTPUT: 2xf32=[1 3]
func.func public @main(%x: tensor<?xf32>, %s: tensor<i32>, %t: tensor<i32>, %u: tensor<i32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %xx = stablehlo.concatenate %x, %x, dim = 0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %n = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?xf32>) -> tensor<i32>
  %n1 = stablehlo.reshape %n : (tensor<i32>) -> tensor<1xi32>
  %one = stablehlo.constant dense<1> : tensor<1xi32>
  %two = stablehlo.constant dense<2> : tensor<1xi32>
  %s1 = stablehlo.reshape %s : (tensor<i32>) -> tensor<1xi32>
  %t1 = stablehlo.reshape %t : (tensor<i32>) -> tensor<1xi32>
  %u1 = stablehlo.reshape %u : (tensor<i32>) -> tensor<1xi32>
  %ls = stablehlo.add %s1, %n1 : tensor<1xi32>
  %lt = stablehlo.add %n1, %t1 : tensor<1xi32>
  %lu = stablehlo.add %u1, %n1 : tensor<1xi32>
  %a = stablehlo.real_dynamic_slice %xx, %s1, %ls, %one : (tensor<?xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
  %b = stablehlo.real_dynamic_slice %xx, %t1, %lt, %one : (tensor<?xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
  %c = stablehlo.real_dynamic_slice %xx, %s1, %ls, %two : (tensor<?xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
  %d = stablehlo.real_dynamic_slice %xx, %u1, %lu, %two : (tensor<?xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
  return %a, %b, %c, %d : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}
