// RUN-ARGS: --input="4xi32=3 -1 7 2"
// OUTPUT: i32=7
// OUTPUT: 4xi1=[1 0 1 1]
func.func @main(%a: tensor<4xi32>) -> (tensor<i32>, tensor<4xi1>) {
  %init = stablehlo.constant dense<-2147483648> : tensor<i32>
  %m = stablehlo.reduce(%a init: %init) applies stablehlo.maximum across dimensions = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<4xi32>
  %p = stablehlo.compare GT, %a, %zero, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return %m, %p : tensor<i32>, tensor<4xi1>
}
