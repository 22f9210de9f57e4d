// dot_general and reduce (one input, and argmax's two) on a symbolic batch
// (--symbolic; tests/run.py also runs it specialized). Expected values by
// hand for x = [[1 5 2] [7 0 3]], w = [[1 0] [0 1] [1 1]]: y = x w =
// [[3 7] [10 3]]; the column sums of y [13 10]; each row's maximum of x
// [5 7] and its position [1 0].
// RUN-ARGS: --symbolic --input="2x3xf32=1 5 2 7 0 3" --input="3x2xf32=1 0 0 1 1 1"
// OUTPUT: 2x2xf32=[[3 7][10 3]]
// OUTPUT: 2xf32=[13 10]
// OUTPUT: 2xf32=[5 7]
// OUTPUT: 2xi32=[1 0]
func.func public @main(%x: tensor<?x3xf32>, %w: tensor<3x2xf32>) -> (tensor<?x2xf32>, tensor<2xf32>, tensor<?xf32>, tensor<?xi32>) {
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<?x3xf32>, tensor<3x2xf32>) -> tensor<?x2xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%y init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<?x2xf32>, tensor<f32>) -> tensor<2xf32>
  %d = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
  %d1 = stablehlo.reshape %d : (tensor<i32>) -> tensor<1xi32>
  %three = stablehlo.constant dense<3> : tensor<1xi32>
  %shape = stablehlo.concatenate %d1, %three, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %io = stablehlo.dynamic_iota %shape, dim = 1 : (tensor<2xi32>) -> tensor<?x3xi32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %m:2 = stablehlo.reduce(%x init: %ninf), (%io init: %i0) across dimensions = [1] : (tensor<?x3xf32>, tensor<?x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<?xf32>, tensor<?xi32>)
   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %e: tensor<i32>) {
    %gt = stablehlo.compare GT, %c, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %gt, %c, %a : tensor<i1>, tensor<f32>
    %i = stablehlo.select %gt, %e, %b : tensor<i1>, tensor<i32>
    stablehlo.return %v, %i : tensor<f32>, tensor<i32>
  }
  return %y, %s, %m#0, %m#1 : tensor<?x2xf32>, tensor<2xf32>, tensor<?xf32>, tensor<?xi32>
}
