// --tir-lower-packed-calls refuses a buffer the dispatcher has no array for.
// RUN: tir-opt %s --tir-lower-packed-calls -verify-diagnostics

func.func private @"env.f"(memref<4xbf16>) attributes {tir.packed = 1 : i64}

func.func @main(%x: memref<4xbf16>) {
  // expected-error @below {{passes a 'memref<4xbf16>' to packed function 'env.f'; packed functions take buffers of bool, 8- to 64-bit integers, f16, f32 and f64}}
  call @"env.f"(%x) : (memref<4xbf16>) -> ()
  return
}
