// ERROR: temp_arena_overflow.mlir:7:1: error: @main: its values need a temp arena of more than 2^62 bytes
// Three sorted copies of a 2^58-element f64 tensor (2^61 bytes each) live at
// once: their offsets in the temp arena would pass 2^62 bytes (and soon
// overflow int64), so the buffer plan stops with an error instead.
!t = tensor<536870912x536870912xf64>
!s = tensor<f64>
func.func @main(%a: !t) -> !t {
  %0 = "stablehlo.sort"(%a) ({
  ^bb0(%x: !s, %y: !s):
    %c = stablehlo.compare GT, %x, %y : (!s, !s) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64} : (!t) -> !t
  %1 = "stablehlo.sort"(%a) ({
  ^bb0(%x: !s, %y: !s):
    %c = stablehlo.compare LT, %x, %y : (!s, !s) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64} : (!t) -> !t
  %2 = "stablehlo.sort"(%a) ({
  ^bb0(%x: !s, %y: !s):
    %c = stablehlo.compare GT, %x, %y : (!s, !s) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64} : (!t) -> !t
  %3 = stablehlo.add %0, %1 : !t
  %4 = stablehlo.add %3, %2 : !t
  func.return %4 : !t
}
