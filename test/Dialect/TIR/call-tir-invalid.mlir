// One case per rule of tir.call_tir.
// RUN: tir-opt %s -split-input-file -verify-diagnostics

// Rule: the callee is a function of the module.
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{callee '@missing' is not a function of the module}}
  %0 = tir.call_tir @missing(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Rule: the callee writes its outputs into buffers; it returns nothing.
func.func private @f(%a: memref<8xf32>, %b: memref<8xf32>) -> f32
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{callee '@f' returns values; call_tir calls a prim_func that writes its outputs into buffers it is given}}
  %0 = tir.call_tir @f(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Rule: the callee takes one buffer per input and per output.
func.func private @f(%a: memref<8xf32>, %b: memref<8xf32>)
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{callee '@f' takes 2 buffers; the call passes 2 input(s) and 1 output(s)}}
  %0 = tir.call_tir @f(%x, %x) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Rule: every parameter of the callee is a buffer.
func.func private @f(%a: memref<8xf32>, %n: index)
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{parameter 1 of '@f' is a index; call_tir passes buffers only}}
  %0 = tir.call_tir @f(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Rule: an input has the element type and shape its parameter takes.
func.func private @f(%a: memref<8xf16>, %b: memref<8xf32>)
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{input 0 is a tensor<8xf32>, but parameter 0 of '@f' takes a memref<8xf16>}}
  %0 = tir.call_tir @f(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Rule: an output has the shape its parameter takes.
func.func private @f(%a: memref<8xf32>, %b: memref<4xf32>)
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{output 0 is a tensor<8xf32>, but parameter 1 of '@f' takes a memref<4xf32>}}
  %0 = tir.call_tir @f(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Rule: the callee writes only its outputs (which makes the call pure).
func.func private @f(%a: memref<8xf32> {tir.name = "A"}, %b: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  tir.store %z, %a[%c0] : memref<8xf32>
  return
}
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{callee '@f' writes its input 0 ('A'); call_tir's callee writes only its outputs}}
  %0 = tir.call_tir @f(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Rule: each dynamic dimension of the results has its size in dims(...)
// (bufferization allocates the results).
func.func private @f(%a: memref<?xf32>, %b: memref<?xf32>)
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{results have 1 dynamic dimension(s) but the call gives 0 size(s) in dims(...); one per '?'}}
  %0 = tir.call_tir @f(%x) : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Rule (as above): a write through a value the input flows into counts.
func.func private @f(%a: memref<8xf32>, %b: memref<8xf32>) {
  %t = arith.constant true
  %m = arith.select %t, %a, %b : memref<8xf32>
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  tir.store %z, %m[%c0] : memref<8xf32>
  return
}
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{callee '@f' writes its input 0; call_tir's callee writes only its outputs}}
  %0 = tir.call_tir @f(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Rule: a parameter takes the row-major buffers the call passes.
func.func private @f(%a: memref<4x4xf32>, %b: memref<4x4xf32, strided<[1, 4]>>)
func.func @main(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{output 0 is a tensor<4x4xf32>, but parameter 1 of '@f' takes a memref<4x4xf32, strided<[1, 4]>>}}
  %0 = tir.call_tir @f(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
