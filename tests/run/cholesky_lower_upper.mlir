// spec "cholesky": the lower factor L (a = L L^H) and the upper one
// U = L^H, reading only a's lower resp. upper triangle (the other one holds
// 99 here, ignored); the opposite triangle of the result is zero. Hand-checked:
//   [[4 2] [2 10]] = [[2 0] [1 3]] [[2 1] [0 3]]
//   [[4 (2,2)] [(2,-2) 11]]: L = [[2 0] [(1,-1) 3]]
// RUN-ARGS: --input="2x2xf64=4 99 2 10" --input="2x2xf64=4 2 99 10"
// OUTPUT: 2x2xf64=[[2 0][1 3]]
// OUTPUT: 2x2xf64=[[2 1][0 3]]
// OUTPUT: 2x2xcomplex<f32>=[[(2,0) (0,0)][(1,-1) (3,0)]]
// OUTPUT: 2x2xcomplex<f32>=[[(2,0) (1,1)][(0,0) (3,0)]]
func.func @main(%lo: tensor<2x2xf64>, %up: tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2x2xf64>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>) {
  %0 = stablehlo.cholesky %lo, lower = true : tensor<2x2xf64>
  %1 = stablehlo.cholesky %up, lower = false : tensor<2x2xf64>
  %c = stablehlo.constant dense<[[(4.0, 0.0), (2.0, 2.0)], [(2.0, -2.0), (11.0, 0.0)]]> : tensor<2x2xcomplex<f32>>
  %2 = stablehlo.cholesky %c, lower = true : tensor<2x2xcomplex<f32>>
  %3 = stablehlo.cholesky %c, lower = false : tensor<2x2xcomplex<f32>>
  return %0, %1, %2, %3 : tensor<2x2xf64>, tensor<2x2xf64>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>
}
