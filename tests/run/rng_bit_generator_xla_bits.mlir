// spec "rng_bit_generator": the bits are implementation-defined; shloc
// produces XLA's (codegen/rng.c), checked here against an independent
// reference that reproduces the conformance case
// testdata/rng_bit_generator_uint64_2.mlir and Random123's known answers.
//  - THREE_FRY, scalar ui64: the conformance case (key 3, counter 3).
//  - THREE_FRY, 2x3xui32: elements paired along dimension 0 (the first of
//    even extent): three blocks, x0 in row 0 and x1 in row 1.
//  - PHILOX, 3-element state, 5xui32: two 128-bit blocks, the counter's low
//    word wrapping into its high word (state[2]) in the new state.
//  - PHILOX, 2-element state, 3xui64: the key is the counter's high half;
//    two blocks, the last half used; the new state keeps only the low word.
//  - DEFAULT (PHILOX, as on XLA's CPU backend), 3xui8: low bits of 32-bit words.
// RUN-ARGS: --input="2xui64=3 3" --input="2xui64=7 10" --input="3xui64=1 18446744073709551615 7"
// RUN-ARGS: --input="2xui64=9 18446744073709551614" --input="3xui64=5 6 7"
// OUTPUT: 2xui64=[3 4]
// OUTPUT: ui64=3349939604322698703
// OUTPUT: 2xui64=[7 13]
// OUTPUT: 2x3xui32=[[17873132 2218545827 1460919419][884161837 757886286 1895465418]]
// OUTPUT: 3xui64=[1 1 8]
// OUTPUT: 5xui32=[2939814351 3089645902 2240701313 4013425625 2720442693]
// OUTPUT: 2xui64=[9 0]
// OUTPUT: 3xui64=[14154043148291417725 9707328188029410249 1897066024754302880]
// OUTPUT: 3xui64=[5 7 7]
// OUTPUT: 3xui8=[227 54 171]
func.func @main(%s0: tensor<2xui64>, %s1: tensor<2xui64>, %s2: tensor<3xui64>,
                %s3: tensor<2xui64>, %s4: tensor<3xui64>)
    -> (tensor<2xui64>, tensor<ui64>, tensor<2xui64>, tensor<2x3xui32>,
        tensor<3xui64>, tensor<5xui32>, tensor<2xui64>, tensor<3xui64>,
        tensor<3xui64>, tensor<3xui8>) {
  %n0, %o0 = stablehlo.rng_bit_generator %s0, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<ui64>)
  %n1, %o1 = stablehlo.rng_bit_generator %s1, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui32>)
  %n2, %o2 = stablehlo.rng_bit_generator %s2, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<5xui32>)
  %n3, %o3 = stablehlo.rng_bit_generator %s3, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui64>)
  %n4, %o4 = stablehlo.rng_bit_generator %s4, algorithm = DEFAULT : (tensor<3xui64>) -> (tensor<3xui64>, tensor<3xui8>)
  return %n0, %o0, %n1, %o1, %n2, %o2, %n3, %o3, %n4, %o4
    : tensor<2xui64>, tensor<ui64>, tensor<2xui64>, tensor<2x3xui32>, tensor<3xui64>,
      tensor<5xui32>, tensor<2xui64>, tensor<3xui64>, tensor<3xui64>, tensor<3xui8>
}
