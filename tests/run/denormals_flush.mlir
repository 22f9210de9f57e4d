// --denormals=flush: denormal inputs read as zero (DAZ) and denormal
// results become zero (FTZ); normal values are untouched. The IEEE
// default keeps them (run/denormals_ieee.mlir).
// HOST-ONLY: --denormals=flush exists for x86 and AArch64 only
// RUN-ARGS: --denormals=flush
// RUN-ARGS: --input="4xf32=1e-39 1e-20 1 2" --input="4xf32=1 1e-20 1e-39 3"
// OUTPUT: 4xf32=[0 0 0 6]
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.multiply %x, %y : tensor<4xf32>
  return %0 : tensor<4xf32>
}
