// complex<f32>/complex<f64> (spec "Types"): arithmetic, division by zero
// (C99 Annex G: an infinity), abs (result of the part type), sqrt's
// principal root, lexicographic maximum, compare, convert both ways (to a
// real type the imaginary part is dropped), real/imag/complex, a reduce
// with a complex body, dot_general over converted real operands. Only
// correctly rounded IEEE operations are involved (no vmath polynomials),
// so the digits do not depend on the CPU.
// OUTPUT: 3xcomplex<f32>=[(-2,1) (-8,0) (0,0)]
// OUTPUT: 3xcomplex<f64>=[(2,-1) (-2,0) (inf,-inf)]
// OUTPUT: 3xf32=[2.236068 4 5]
// OUTPUT: 3xcomplex<f64>=[(1.272019649514069,0.7861513777574233) (0,2) (2,-1)]
// OUTPUT: 3xcomplex<f32>=[(1,2) (2,0) (3,-4)]
// OUTPUT: 3xi1=[1 0 1]
// OUTPUT: 3xi32=[1 -4 3]
// OUTPUT: 3xf32=[2 0 -4]
// OUTPUT: 3xcomplex<f32>=[(2,1) (0,-4) (-4,3)]
// OUTPUT: complex<f32>=(-10,1)
// OUTPUT: 2xcomplex<f64>=[(1,-1) (3,-1)]
func.func @main() -> (tensor<3xcomplex<f32>>, tensor<3xcomplex<f64>>, tensor<3xf32>, tensor<3xcomplex<f64>>, tensor<3xcomplex<f32>>, tensor<3xi1>, tensor<3xi32>, tensor<3xf32>, tensor<3xcomplex<f32>>, tensor<complex<f32>>, tensor<2xcomplex<f64>>) {
  %a = stablehlo.constant dense<[(1.0, 2.0), (-4.0, 0.0), (3.0, -4.0)]> : tensor<3xcomplex<f32>>
  %b = stablehlo.constant dense<[(0.0, 1.0), (2.0, 0.0), (0.0, 0.0)]> : tensor<3xcomplex<f32>>
  %m = stablehlo.multiply %a, %b : tensor<3xcomplex<f32>>
  %d = stablehlo.divide %a, %b : tensor<3xcomplex<f32>>
  %dw = stablehlo.convert %d : (tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f64>>
  %abs = stablehlo.abs %a : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %aw = stablehlo.convert %a : (tensor<3xcomplex<f32>>) -> tensor<3xcomplex<f64>>
  %sq = stablehlo.sqrt %aw : tensor<3xcomplex<f64>>
  %mx = stablehlo.maximum %a, %b : tensor<3xcomplex<f32>>
  %c = stablehlo.constant dense<[(1.0, 2.0), (-4.0, 1.0), (3.0, -4.0)]> : tensor<3xcomplex<f32>>
  %eq = stablehlo.compare EQ, %a, %c, FLOAT : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<3xi1>
  %ai = stablehlo.convert %a : (tensor<3xcomplex<f32>>) -> tensor<3xi32>
  %im = stablehlo.imag %a : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %re = stablehlo.real %a : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %sw = stablehlo.complex %im, %re : tensor<3xcomplex<f32>>
  %z = stablehlo.constant dense<(0.0, 0.0)> : tensor<complex<f32>>
  %s = stablehlo.reduce(%m init: %z) applies stablehlo.add across dimensions = [0] : (tensor<3xcomplex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
  %l = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64>
  %v = stablehlo.constant dense<[(1.0, 1.0), (0.0, -1.0)]> : tensor<2xcomplex<f64>>
  %lc = stablehlo.convert %l : (tensor<2x2xf64>) -> tensor<2x2xcomplex<f64>>
  %dot = stablehlo.dot_general %lc, %v, contracting_dims = [1] x [0] : (tensor<2x2xcomplex<f64>>, tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>>
  return %m, %dw, %abs, %sq, %mx, %eq, %ai, %im, %sw, %s, %dot : tensor<3xcomplex<f32>>, tensor<3xcomplex<f64>>, tensor<3xf32>, tensor<3xcomplex<f64>>, tensor<3xcomplex<f32>>, tensor<3xi1>, tensor<3xi32>, tensor<3xf32>, tensor<3xcomplex<f32>>, tensor<complex<f32>>, tensor<2xcomplex<f64>>
}
