// CHLO ops whose results are exact (bit manipulation, integer arithmetic,
// sorting, loops), plus f16 functions computed in f32 and rounded once.
// Expected values worked out independently (Python integers, IEEE rules,
// mpmath rounded to f16).
// RUN-ARGS: --input="6xf32=0 -0 1 1 inf nan" --input="6xf32=-1 1 2 0 0 1"
// RUN-ARGS: --input="4xi64=1152921504606846976 -1152921504606846976 -9223372036854775808 -1"
// RUN-ARGS: --input="4xi64=16 16 -9223372036854775808 -1"
// RUN-ARGS: --input="7xf32=1 nan 3 inf -0 3 -inf" --input="4xi32=1 2 3 4"
// RUN-ARGS: --input="2x3xf32=1 2 3 4 5 6" --input="2xf32=10 100"
// RUN-ARGS: --input="4xf16=0.5 -1 2 0.1"
// next_after: smallest subnormals from +-0, one ulp towards y, max finite from inf, nan.
// OUTPUT: 6xf32=[-1e-45 1e-45 1.0000001 0.99999994 3.4028235e+38 nan]
// mulhi: (2^60 * 16) >> 64 = 1, (-2^60 * 16) >> 64 = -1, (-2^63)^2 >> 64 = 2^62,
// (-1 * -1) >> 64 = 0.
// OUTPUT: 4xi64=[1 -1 4611686018427387904 0]
// top_k, k = 4: nan is the largest in total order; ties keep index order.
// OUTPUT: 4xf32=[nan inf 3 3]
// OUTPUT: 4xi32=[1 3 2 5]
// scan (reverse): suffix sums and the total.
// OUTPUT: 4xi32=[10 9 7 4]
// OUTPUT: i32=10
// is_inf, is_pos_inf, is_neg_inf of [1 nan 3 inf -0 3 -inf].
// OUTPUT: 7xi1=[0 0 0 1 0 0 1]
// OUTPUT: 7xi1=[0 0 0 1 0 0 0]
// OUTPUT: 7xi1=[0 0 0 0 0 0 1]
// broadcast_multiply, rhs along dimension 0.
// OUTPUT: 2x3xf32=[[10 20 30][400 500 600]]
// erf in f16 (inputs 0.5, -1, 2 and 0.1 rounded to f16): the f16 nearest to
// mpmath's 0.52050..., -0.84270..., 0.99532..., 0.11243..., printed shortest.
// OUTPUT: 4xf16=[0.5205 -0.843 0.995 0.1124]
func.func @main(%x: tensor<6xf32>, %y: tensor<6xf32>, %a: tensor<4xi64>, %b: tensor<4xi64>,
                %t: tensor<7xf32>, %s: tensor<4xi32>, %m: tensor<2x3xf32>, %v: tensor<2xf32>,
                %h: tensor<4xf16>)
    -> (tensor<6xf32>, tensor<4xi64>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<i32>,
        tensor<7xi1>, tensor<7xi1>, tensor<7xi1>, tensor<2x3xf32>, tensor<4xf16>) {
  %na = chlo.next_after %x, %y : tensor<6xf32>, tensor<6xf32> -> tensor<6xf32>
  %mh = "chlo.mulhi"(%a, %b) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %tv, %ti = chlo.top_k(%t, k = 4) : tensor<7xf32> -> (tensor<4xf32>, tensor<4xi32>)
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %sc:2 = chlo.scan(%s) inits(%zero) dimension=0 attributes {is_reverse = true} {
  ^bb0(%e: tensor<i32>, %acc: tensor<i32>):
    %sum = stablehlo.add %e, %acc : tensor<i32>
    stablehlo.return %sum, %sum : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  %inf = chlo.is_inf %t : tensor<7xf32> -> tensor<7xi1>
  %pinf = chlo.is_pos_inf %t : tensor<7xf32> -> tensor<7xi1>
  %ninf = chlo.is_neg_inf %t : tensor<7xf32> -> tensor<7xi1>
  %bm = chlo.broadcast_multiply %m, %v {broadcast_dimensions = array<i64: 0>}
      : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  %erf = chlo.erf %h : tensor<4xf16> -> tensor<4xf16>
  return %na, %mh, %tv, %ti, %sc#0, %sc#1, %inf, %pinf, %ninf, %bm, %erf
      : tensor<6xf32>, tensor<4xi64>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<i32>,
        tensor<7xi1>, tensor<7xi1>, tensor<7xi1>, tensor<2x3xf32>, tensor<4xf16>
}
