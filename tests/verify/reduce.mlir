// Verifier tests for reduce and reduce_window (spec constraints cited).
// Run: tests/verify/run_verify.py build/shloc tests/verify/*.mlir

func.func @reduce_sum(%x: tensor<4x5xf32>, %init: tensor<f32>) -> tensor<5xf32> {
  %0 = stablehlo.reduce(%x init: %init) applies stablehlo.add across dimensions = [0] : (tensor<4x5xf32>, tensor<f32>) -> tensor<5xf32>
  func.return %0 : tensor<5xf32>
}

// -----

func.func @reduce_generic_variadic(%x: tensor<4x5xf32>, %i: tensor<4x5xi32>, %a: tensor<f32>, %b: tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0:2 = "stablehlo.reduce"(%x, %i, %a, %b) ({
  ^bb0(%p: tensor<f32>, %q: tensor<i32>, %r: tensor<f32>, %s: tensor<i32>):
    %m = stablehlo.maximum %p, %r : tensor<f32>
    %n = stablehlo.minimum %q, %s : tensor<i32>
    stablehlo.return %m, %n : tensor<f32>, tensor<i32>
  }) {dimensions = array<i64: 1>} : (tensor<4x5xf32>, tensor<4x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
  func.return %0#0, %0#1 : tensor<4xf32>, tensor<4xi32>
}

// -----

func.func @reduce_promotable(%x: tensor<4xf32>, %init: tensor<f32>) -> tensor<f64> {
  %0 = "stablehlo.reduce"(%x, %init) ({
  ^bb0(%p: tensor<f64>, %q: tensor<f64>):
    %s = stablehlo.add %p, %q : tensor<f64>
    stablehlo.return %s : tensor<f64>
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<f32>) -> tensor<f64>
  func.return %0 : tensor<f64>
}

// -----

func.func @reduce_c2(%x: tensor<4x5xf32>, %init: tensor<i32>) -> tensor<5xf32> {
  // expected-error@+1 {{differ in element type (C2)}}
  %0 = "stablehlo.reduce"(%x, %init) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = stablehlo.add %p, %q : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<4x5xf32>, tensor<i32>) -> tensor<5xf32>
  func.return %0 : tensor<5xf32>
}

// -----

func.func @reduce_c4(%x: tensor<4x5xf32>, %init: tensor<f32>) -> tensor<5xf32> {
  // expected-error@+1 {{out of range (C4)}}
  %0 = stablehlo.reduce(%x init: %init) applies stablehlo.add across dimensions = [2] : (tensor<4x5xf32>, tensor<f32>) -> tensor<5xf32>
  func.return %0 : tensor<5xf32>
}

// -----

func.func @reduce_c5(%x: tensor<4x5xf32>, %init: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{duplicate dimension 0 (C5)}}
  %0 = stablehlo.reduce(%x init: %init) applies stablehlo.add across dimensions = [0, 0] : (tensor<4x5xf32>, tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @reduce_c6_arity(%x: tensor<4xf32>, %init: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{must take 2 arguments, takes 1 (C6)}}
  %0 = "stablehlo.reduce"(%x, %init) ({
  ^bb0(%p: tensor<f32>):
    stablehlo.return %p : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @reduce_c6_not_promotable(%x: tensor<4xf64>, %init: tensor<f64>) -> tensor<f32> {
  // expected-error@+1 {{not promotable (C6)}}
  %0 = "stablehlo.reduce"(%x, %init) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = stablehlo.add %p, %q : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<4xf64>, tensor<f64>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @reduce_c7(%x: tensor<4x5xf32>, %init: tensor<f32>) -> tensor<4xf32> {
  // expected-error@+1 {{incompatible with result type (C7-C8)}}
  %0 = stablehlo.reduce(%x init: %init) applies stablehlo.add across dimensions = [0] : (tensor<4x5xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @reduce_window_max_pool(%x: tensor<1x8x8x3xf32>, %init: tensor<f32>) -> tensor<1x4x4x3xf32> {
  %0 = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<1x8x8x3xf32>, tensor<f32>) -> tensor<1x4x4x3xf32>
  func.return %0 : tensor<1x4x4x3xf32>
}

// -----

func.func @reduce_window_padded_dilated(%x: tensor<3x2xi64>, %init: tensor<i64>) -> tensor<2x2xi64> {
  %0 = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 4, 1>, base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 3, 1>, padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<3x2xi64>, tensor<i64>) -> tensor<2x2xi64>
  func.return %0 : tensor<2x2xi64>
}

// -----

func.func @reduce_window_c4(%x: tensor<8x8xf32>, %init: tensor<f32>) -> tensor<4x4xf32> {
  // expected-error@+1 {{window_dimensions must have 2 elements, has 1 (C4)}}
  %0 = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<4x4xf32>
  func.return %0 : tensor<4x4xf32>
}

// -----

func.func @reduce_window_c7(%x: tensor<8x8xf32>, %init: tensor<f32>) -> tensor<4x4xf32> {
  // expected-error@+1 {{window_strides must be positive, got 0 (C7)}}
  %0 = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 0, 2>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<4x4xf32>
  func.return %0 : tensor<4x4xf32>
}

// -----

func.func @reduce_window_c15(%x: tensor<8x8xf32>, %init: tensor<f32>) -> tensor<4x4xf32> {
  // expected-error@+1 {{incompatible with result type (C14-C16)}}
  %0 = "stablehlo.reduce_window"(%x, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<4x4xf32>
  func.return %0 : tensor<4x4xf32>
}
