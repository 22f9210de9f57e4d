// Verifier tests for while, if, case, func.call and func.return.

func.func @while_count(%n: tensor<i64>) -> tensor<i64> {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %r = stablehlo.while(%i = %zero) : tensor<i64>
  cond {
    %c = stablehlo.compare LT, %i, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %next = stablehlo.add %i, %one : tensor<i64>
    stablehlo.return %next : tensor<i64>
  }
  func.return %r : tensor<i64>
}

// -----

func.func @while_c1_cond_type(%x: tensor<i64>) -> tensor<i64> {
  // expected-error@+1 {{cond must return tensor<i1>}}
  %r = "stablehlo.while"(%x) ({
  ^bb0(%i: tensor<i64>):
    "stablehlo.return"(%i) : (tensor<i64>) -> ()
  }, {
  ^bb0(%i: tensor<i64>):
    "stablehlo.return"(%i) : (tensor<i64>) -> ()
  }) : (tensor<i64>) -> tensor<i64>
  func.return %r : tensor<i64>
}

// -----

func.func @while_c2_body_type(%x: tensor<i64>, %p: tensor<i1>, %y: tensor<i32>) -> tensor<i64> {
  // expected-error@+1 {{body returns 'tensor<i32>' at #0, expected 'tensor<i64>' (C2)}}
  %r = "stablehlo.while"(%x) ({
  ^bb0(%i: tensor<i64>):
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i64>):
    "stablehlo.return"(%y) : (tensor<i32>) -> ()
  }) : (tensor<i64>) -> tensor<i64>
  func.return %r : tensor<i64>
}

// -----

func.func @while_c3_result(%x: tensor<i64>, %p: tensor<i1>) -> tensor<i32> {
  // expected-error@+1 {{(C3)}}
  %r = "stablehlo.while"(%x) ({
  ^bb0(%i: tensor<i64>):
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i64>):
    "stablehlo.return"(%i) : (tensor<i64>) -> ()
  }) : (tensor<i64>) -> tensor<i32>
  func.return %r : tensor<i32>
}

// -----

func.func @if_pred_type(%p: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{pred must be tensor<i1>}}
  %0 = "stablehlo.if"(%p) ({
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }, {
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) : (tensor<i32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @case_index_type(%i: tensor<i64>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{index must be tensor<i32>}}
  %0 = "stablehlo.case"(%i) ({
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) : (tensor<i64>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func private @callee(%a: tensor<2xf32>) -> tensor<2xf32> {
  func.return %a : tensor<2xf32>
}

func.func @call_ok(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @callee(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func private @callee(%a: tensor<2xf32>) -> tensor<2xf32> {
  func.return %a : tensor<2xf32>
}

func.func @call_argument_type(%x: tensor<3xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{argument #0 has type 'tensor<3xf32>'}}
  %0 = func.call @callee(%x) : (tensor<3xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @call_undefined(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{undefined function @nowhere}}
  %0 = func.call @nowhere(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @return_type(%x: tensor<2xf32>) -> tensor<2xi32> {
  // expected-error@+1 {{returns 'tensor<2xf32>' at #0}}
  func.return %x : tensor<2xf32>
}

// -----

func.func @return_count(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  // expected-error@+1 {{returns 1 values}}
  func.return %x : tensor<2xf32>
}
