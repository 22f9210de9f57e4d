// all_reduce folds in group order (runtime/shlort.h, shlort_combine_fn):
// the region a + 2 * b is not commutative, so the result shows the order.
// Groups [[1, 0], [2, 3]] over four replicas: group {1, 0} gets
// x1 + 2 * x0 = 10 + 2 * 1 = 12 (elementwise: [12 24]), group {2, 3} gets
// x2 + 2 * x3 = 100 + 2 * 1000 = 2100. The region is several ops with a
// constant of its own.
// RUN-ARGS: --replicas=4 --input="2xf64=1 2" --input="2xf64=10 20"
// RUN-ARGS: --input="2xf64=100 200" --input="2xf64=1000 2000"
// OUTPUT: 2xf64=[12 24]
// OUTPUT: 2xf64=[12 24]
// OUTPUT: 2xf64=[2100 4200]
// OUTPUT: 2xf64=[2100 4200]
func.func @main(%x: tensor<2xf64>) -> tensor<2xf64> {
  %r = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f64>, %b: tensor<f64>):
      %two = stablehlo.constant dense<2.0> : tensor<f64>
      %t = stablehlo.multiply %b, %two : tensor<f64>
      %c = stablehlo.add %a, %t : tensor<f64>
      stablehlo.return %c : tensor<f64>
  }) {replica_groups = dense<[[1, 0], [2, 3]]> : tensor<2x2xi64>} : (tensor<2xf64>) -> tensor<2xf64>
  return %r : tensor<2xf64>
}
