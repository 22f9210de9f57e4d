// The FP8 and MX types (spec "Element types") are stored one per byte and
// computed in f32, rounded back to the type after each op, to nearest even
// (codegen/minifloat.c). Expected values by hand:
// f8E4M3FN (bias 7, 3 mantissa bits, no inf, NaN = S.1111.111, max 448):
//   1.0625 and 1.1875 are ties between 1, 1.125 and 1.125, 1.25: even
//   mantissas 1 and 1.25; 464 ties 448 (mantissa 110) with 480 (111, the
//   NaN encoding): 448; 500 and -1e6 overflow to NaN (0x7f, 0xff);
//   2^-10 ties 0 with the smallest subnormal 2^-9: 0; 1.5 * 2^-10: 2^-9.
//   Bits: 1 = 0.0111.000 = 0x38, 1.25 = 0x3a, 448 = 0x7e.
// f8E5M2 (IEEE, bias 15, 2 mantissa bits, max 57344): 61440 ties 57344
//   (mantissa 11) with 65536: inf; 60000: 57344; 1.125 ties: 1; 1.375: 1.5.
// f4E2M1FN (values 0 0.5 1 1.5 2 3 4 6, saturating): ties 0.25 -> 0,
//   0.75 -> 1, 2.5 -> 2, 5 -> 4; 7, 100 -> 6; -inf -> -6; its bits: -6 is
//   1.11.1, -1 as i4.
// f8E4M3FN add, rounded per op: (1 + 0.0625) + 0.0625 = 1 + 0.0625 = 1, and
//   3 + 0.0625 = 3 (ulp 0.25); a dot of [1 3] with itself: 10.
// f8E4M3FNUZ (no -0, NaN = 0x80): -0 -> 0, NaN -> 0x80, -240 (bias 8, mantissa 111)
//   -> 1.1111.111 = 0xff.
// RUN-ARGS: --input="8xf32=1.0625 1.1875 448 464 500 -1e6 0.0009765625 0.00146484375"
// RUN-ARGS: --input="6xf32=57344 61440 60000 1.125 1.375 -0"
// RUN-ARGS: --input="7xf32=0.25 0.75 2.5 5 7 100 -inf"
// RUN-ARGS: --input="2xf32=1 3" --input="3xf32=-0 nan -240"
// OUTPUT: 8xf32=[1 1.25 448 448 nan nan 0 0.001953125]
// OUTPUT: 8xui8=[56 58 126 126 127 255 0 1]
// OUTPUT: 6xf32=[57344 inf 57344 1 1.5 -0]
// OUTPUT: 7xf32=[0 1 2 4 6 6 -6]
// OUTPUT: 7xi4=[0 2 4 6 7 7 -1]
// OUTPUT: 2xf8E4M3FN=[1 3]
// OUTPUT: f8E4M3FN=10
// OUTPUT: 3xui8=[0 128 255]
func.func @main(%a: tensor<8xf32>, %b: tensor<6xf32>, %c: tensor<7xf32>, %d: tensor<2xf32>,
                %e: tensor<3xf32>)
    -> (tensor<8xf32>, tensor<8xui8>, tensor<6xf32>, tensor<7xf32>, tensor<7xi4>,
        tensor<2xf8E4M3FN>, tensor<f8E4M3FN>, tensor<3xui8>) {
  %a8 = stablehlo.convert %a : (tensor<8xf32>) -> tensor<8xf8E4M3FN>
  %ar = stablehlo.convert %a8 : (tensor<8xf8E4M3FN>) -> tensor<8xf32>
  %ab = stablehlo.bitcast_convert %a8 : (tensor<8xf8E4M3FN>) -> tensor<8xui8>
  %b8 = stablehlo.convert %b : (tensor<6xf32>) -> tensor<6xf8E5M2>
  %br = stablehlo.convert %b8 : (tensor<6xf8E5M2>) -> tensor<6xf32>
  %c4 = stablehlo.convert %c : (tensor<7xf32>) -> tensor<7xf4E2M1FN>
  %cr = stablehlo.convert %c4 : (tensor<7xf4E2M1FN>) -> tensor<7xf32>
  %cb = stablehlo.bitcast_convert %c4 : (tensor<7xf4E2M1FN>) -> tensor<7xi4>
  %d8 = stablehlo.convert %d : (tensor<2xf32>) -> tensor<2xf8E4M3FN>
  %t = stablehlo.constant dense<0.0625> : tensor<2xf8E4M3FN>
  %s1 = stablehlo.add %d8, %t : tensor<2xf8E4M3FN>
  %s2 = stablehlo.add %s1, %t : tensor<2xf8E4M3FN>
  %dot = stablehlo.dot_general %d8, %d8, contracting_dims = [0] x [0]
    : (tensor<2xf8E4M3FN>, tensor<2xf8E4M3FN>) -> tensor<f8E4M3FN>
  %e8 = stablehlo.convert %e : (tensor<3xf32>) -> tensor<3xf8E4M3FNUZ>
  %eb = stablehlo.bitcast_convert %e8 : (tensor<3xf8E4M3FNUZ>) -> tensor<3xui8>
  return %ar, %ab, %br, %cr, %cb, %s2, %dot, %eb
    : tensor<8xf32>, tensor<8xui8>, tensor<6xf32>, tensor<7xf32>, tensor<7xi4>,
      tensor<2xf8E4M3FN>, tensor<f8E4M3FN>, tensor<3xui8>
}
