// RUN: tir-opt %s --tir-request-c-interface | FileCheck %s

// A public function with a body gets a C wrapper and its buffers are
// recorded as distinct: the aligned pointers of A (position 1, after its
// allocated pointer) and B (9: after A's 7 expanded parameters, the index
// and B's allocated pointer). The index parameter is not a buffer.
// CHECK-LABEL: func.func @entry(
// CHECK-SAME:    attributes {llvm.emit_c_interface, tir.noalias_params = array<i64: 1, 9>}
func.func @entry(%A: memref<8x8xf32>, %n: index, %B: memref<4xf32>) {
  return
}

// A function with no buffer parameter gets the wrapper only.
// CHECK-LABEL: func.func @scalars(
// CHECK-SAME:    attributes {llvm.emit_c_interface} {
func.func @scalars(%n: index) {
  return
}

// Private functions and declarations (an external C function) are left alone.
// CHECK-LABEL: func.func private @helper(
// CHECK-NOT:     attributes
// CHECK-SAME:    {
func.func private @helper(%A: memref<8xf32>) {
  return
}
// CHECK-LABEL: func.func private @expf(f32) -> f32{{$}}
func.func private @expf(f32) -> f32
