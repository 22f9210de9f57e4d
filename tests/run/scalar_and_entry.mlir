// RUN-ARGS: --entry=twice --input="i32=21"
// OUTPUT: i32=42
func.func @main(%a: tensor<i32>) -> tensor<i32> {
  return %a : tensor<i32>
}
func.func @twice(%a: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.add %a, %a : tensor<i32>
  return %0 : tensor<i32>
}
