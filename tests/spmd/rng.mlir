// stablehlo.rng (spec "rng") in a 2-process grid: 4096 uniform f32 draws
// in [2, 3) have their min >= 2, max < 3 and mean near 2.5 (the standard
// error of the mean is 0.0045; tolerance 0.03); 4096 normal f64 draws with
// mean 1 and deviation 2 have a mean near 1 (se 0.031, tolerance 0.15) and
// a mean square deviation near 4 (tolerance 0.5); 4096 uniform i32 draws in
// [-3, 5) stay in range. Each process checks its own draws' statistics,
// which are independent of the generator's bits.
module @rng {
  func.func @draw() -> (tensor<3xf32>, tensor<2xf64>, tensor<2xi32>) {
    %a = stablehlo.constant dense<2.0> : tensor<f32>
    %b = stablehlo.constant dense<3.0> : tensor<f32>
    %shape = stablehlo.constant dense<[4096]> : tensor<1xi64>
    %u = "stablehlo.rng"(%a, %b, %shape) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
        : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4096xf32>
    %big = stablehlo.constant dense<1.0e30> : tensor<f32>
    %small = stablehlo.constant dense<-1.0e30> : tensor<f32>
    %zf = stablehlo.constant dense<0.0> : tensor<f32>
    %umin = stablehlo.reduce(%u init: %big) applies stablehlo.minimum across dimensions = [0] : (tensor<4096xf32>, tensor<f32>) -> tensor<f32>
    %umax = stablehlo.reduce(%u init: %small) applies stablehlo.maximum across dimensions = [0] : (tensor<4096xf32>, tensor<f32>) -> tensor<f32>
    %usum = stablehlo.reduce(%u init: %zf) applies stablehlo.add across dimensions = [0] : (tensor<4096xf32>, tensor<f32>) -> tensor<f32>
    %nf = stablehlo.constant dense<4096.0> : tensor<f32>
    %umean = stablehlo.divide %usum, %nf : tensor<f32>
    %umin1 = stablehlo.reshape %umin : (tensor<f32>) -> tensor<1xf32>
    %umax1 = stablehlo.reshape %umax : (tensor<f32>) -> tensor<1xf32>
    %umean1 = stablehlo.reshape %umean : (tensor<f32>) -> tensor<1xf32>
    %u3 = stablehlo.concatenate %umin1, %umax1, %umean1, dim = 0 : (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3xf32>
    %m = stablehlo.constant dense<1.0> : tensor<f64>
    %s = stablehlo.constant dense<2.0> : tensor<f64>
    %g = "stablehlo.rng"(%m, %s, %shape) {rng_distribution = #stablehlo<rng_distribution NORMAL>}
        : (tensor<f64>, tensor<f64>, tensor<1xi64>) -> tensor<4096xf64>
    %zd = stablehlo.constant dense<0.0> : tensor<f64>
    %nd = stablehlo.constant dense<4096.0> : tensor<f64>
    %gsum = stablehlo.reduce(%g init: %zd) applies stablehlo.add across dimensions = [0] : (tensor<4096xf64>, tensor<f64>) -> tensor<f64>
    %gmean = stablehlo.divide %gsum, %nd : tensor<f64>
    %mb = stablehlo.broadcast_in_dim %m, dims = [] : (tensor<f64>) -> tensor<4096xf64>
    %d = stablehlo.subtract %g, %mb : tensor<4096xf64>
    %d2 = stablehlo.multiply %d, %d : tensor<4096xf64>
    %vsum = stablehlo.reduce(%d2 init: %zd) applies stablehlo.add across dimensions = [0] : (tensor<4096xf64>, tensor<f64>) -> tensor<f64>
    %var = stablehlo.divide %vsum, %nd : tensor<f64>
    %gmean1 = stablehlo.reshape %gmean : (tensor<f64>) -> tensor<1xf64>
    %var1 = stablehlo.reshape %var : (tensor<f64>) -> tensor<1xf64>
    %g2 = stablehlo.concatenate %gmean1, %var1, dim = 0 : (tensor<1xf64>, tensor<1xf64>) -> tensor<2xf64>
    %lo = stablehlo.constant dense<-3> : tensor<i32>
    %hi = stablehlo.constant dense<5> : tensor<i32>
    %k = "stablehlo.rng"(%lo, %hi, %shape) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
        : (tensor<i32>, tensor<i32>, tensor<1xi64>) -> tensor<4096xi32>
    %bi = stablehlo.constant dense<1000> : tensor<i32>
    %si = stablehlo.constant dense<-1000> : tensor<i32>
    %kmin = stablehlo.reduce(%k init: %bi) applies stablehlo.minimum across dimensions = [0] : (tensor<4096xi32>, tensor<i32>) -> tensor<i32>
    %kmax = stablehlo.reduce(%k init: %si) applies stablehlo.maximum across dimensions = [0] : (tensor<4096xi32>, tensor<i32>) -> tensor<i32>
    %kmin1 = stablehlo.reshape %kmin : (tensor<i32>) -> tensor<1xi32>
    %kmax1 = stablehlo.reshape %kmax : (tensor<i32>) -> tensor<1xi32>
    %k2 = stablehlo.concatenate %kmin1, %kmax1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    return %u3, %g2, %k2 : tensor<3xf32>, tensor<2xf64>, tensor<2xi32>
  }
  func.func @main() {
    %r:6 = "interpreter.run_parallel"() {programs = [[@draw], [@draw]]}
        : () -> (tensor<3xf32>, tensor<2xf64>, tensor<2xi32>, tensor<3xf32>, tensor<2xf64>, tensor<2xi32>)
    %lo = stablehlo.constant dense<[2.0, 2.0, 2.0]> : tensor<3xf32>
    %hi = stablehlo.constant dense<[3.0, 3.0, 3.0]> : tensor<3xf32>
    %u0 = stablehlo.clamp %lo, %r#0, %hi : tensor<3xf32>
    check.expect_eq %u0, %r#0 : tensor<3xf32>
    %ltb = stablehlo.compare LT, %r#0, %hi : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
    check.expect_eq_const %ltb, dense<true> : tensor<3xi1>
    %mean0 = stablehlo.slice %r#0 [2:3] : (tensor<3xf32>) -> tensor<1xf32>
    "check.expect_almost_eq_const"(%mean0) {value = dense<2.5> : tensor<1xf32>, tolerance = 0.03 : f64} : (tensor<1xf32>) -> ()
    %mean1 = stablehlo.slice %r#3 [2:3] : (tensor<3xf32>) -> tensor<1xf32>
    "check.expect_almost_eq_const"(%mean1) {value = dense<2.5> : tensor<1xf32>, tolerance = 0.03 : f64} : (tensor<1xf32>) -> ()
    %gm0 = stablehlo.slice %r#1 [0:1] : (tensor<2xf64>) -> tensor<1xf64>
    "check.expect_almost_eq_const"(%gm0) {value = dense<1.0> : tensor<1xf64>, tolerance = 0.15 : f64} : (tensor<1xf64>) -> ()
    %gv0 = stablehlo.slice %r#1 [1:2] : (tensor<2xf64>) -> tensor<1xf64>
    "check.expect_almost_eq_const"(%gv0) {value = dense<4.0> : tensor<1xf64>, tolerance = 0.5 : f64} : (tensor<1xf64>) -> ()
    %gm1 = stablehlo.slice %r#4 [0:1] : (tensor<2xf64>) -> tensor<1xf64>
    "check.expect_almost_eq_const"(%gm1) {value = dense<1.0> : tensor<1xf64>, tolerance = 0.15 : f64} : (tensor<1xf64>) -> ()
    %ki = stablehlo.constant dense<[-3, 4]> : tensor<2xi32>
    check.expect_eq %r#2, %ki : tensor<2xi32>
    check.expect_eq %r#5, %ki : tensor<2xi32>
    func.return
  }
}
