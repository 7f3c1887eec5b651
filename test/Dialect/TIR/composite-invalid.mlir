// One case per rule of tir.composite.
// RUN: tir-opt %s -split-input-file -verify-diagnostics

// Rule: it names the operator it stands for.
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{names the operator it stands for}}
  %0 = tir.composite ""(%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: tensor<8xf32>):
    tir.yield %a : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

// Rule: its block takes one argument per input, of the input's type.
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{input 0 is a 'tensor<8xf32>' but the block's argument a 'tensor<4xf32>'}}
  %0 = tir.composite "op"(%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: tensor<4xf32>):
    tir.yield %x : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

// Rule: its parts yield its results.
func.func @main(%x: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{yields 1 value(s) of other types than its results}}
  %0 = tir.composite "op"(%x) : (tensor<8xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<8xf32>):
    tir.yield %a : tensor<8xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// Rule: as many block arguments as inputs.
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{has 1 input(s) but its block takes 2}}
  %0 = tir.composite "op"(%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: tensor<8xf32>, %b: tensor<8xf32>):
    tir.yield %a : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

// Rule: its body ends with tir.yield (here, with no terminator at all:
// the generic form adds none).
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "tir.composite"(%x) <{name = "op"}> ({
  ^bb0(%a: tensor<8xf32>):
    // expected-error @+1 {{block with no terminator}}
    %n = "tir.null_value"() : () -> !tir.object
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
