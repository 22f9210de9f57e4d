// Several collectives in one program, in a while loop and an if, on a 2x2
// grid: per process x = [10 * id, 10 * id + 1] (id = replica * 2 +
// partition). all_reduce over each replica's row (flattened_ids: channel
// 1, use_global_device_ids, groups [[0, 1], [2, 3]]), twice in a loop;
// then each partition gathers across replicas (no channel: cross_replica,
// groups {(0,p), (1,p)}).
// Row sums: replica 0: [0+10, 1+11] = [10 12]; after the second round
// (both members hold it): [20 24]. Replica 1: [20+30, 21+31] = [50 52],
// then [100 104].
module @mixed {
  func.func @step(%x : tensor<2xi64>) -> (tensor<2xi64>, tensor<4xi64>) {
    %zero = stablehlo.constant dense<0> : tensor<i64>
    %one = stablehlo.constant dense<1> : tensor<i64>
    %two = stablehlo.constant dense<2> : tensor<i64>
    %r:2 = stablehlo.while(%i = %zero, %s = %x) : tensor<i64>, tensor<2xi64>
      cond {
        %p = stablehlo.compare LT, %i, %two : (tensor<i64>, tensor<i64>) -> tensor<i1>
        stablehlo.return %p : tensor<i1>
      } do {
        %n = stablehlo.add %i, %one : tensor<i64>
        %t = "stablehlo.all_reduce"(%s) ({
          ^bb0(%a: tensor<i64>, %b: tensor<i64>):
            %c = stablehlo.add %a, %b : tensor<i64>
            stablehlo.return %c : tensor<i64>
        }) {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>,
            channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
            use_global_device_ids} : (tensor<2xi64>) -> tensor<2xi64>
        stablehlo.return %n, %t : tensor<i64>, tensor<2xi64>
      }
    %g = "stablehlo.all_gather"(%r#1) {all_gather_dim = 0 : i64,
          replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi64>) -> tensor<4xi64>
    return %r#1, %g : tensor<2xi64>, tensor<4xi64>
  }
  func.func @main() {
    %x0 = stablehlo.constant dense<[0, 1]> : tensor<2xi64>
    %x1 = stablehlo.constant dense<[10, 11]> : tensor<2xi64>
    %x2 = stablehlo.constant dense<[20, 21]> : tensor<2xi64>
    %x3 = stablehlo.constant dense<[30, 31]> : tensor<2xi64>
    %r:8 = "interpreter.run_parallel"(%x0, %x1, %x2, %x3) {programs = [[@step, @step], [@step, @step]]}
        : (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>)
        -> (tensor<2xi64>, tensor<4xi64>, tensor<2xi64>, tensor<4xi64>,
            tensor<2xi64>, tensor<4xi64>, tensor<2xi64>, tensor<4xi64>)
    check.expect_eq_const %r#0, dense<[20, 24]> : tensor<2xi64>
    check.expect_eq_const %r#1, dense<[20, 24, 100, 104]> : tensor<4xi64>
    check.expect_eq_const %r#2, dense<[20, 24]> : tensor<2xi64>
    check.expect_eq_const %r#3, dense<[20, 24, 100, 104]> : tensor<4xi64>
    check.expect_eq_const %r#4, dense<[100, 104]> : tensor<2xi64>
    check.expect_eq_const %r#5, dense<[20, 24, 100, 104]> : tensor<4xi64>
    check.expect_eq_const %r#6, dense<[100, 104]> : tensor<2xi64>
    check.expect_eq_const %r#7, dense<[20, 24, 100, 104]> : tensor<4xi64>
    func.return
  }
}
