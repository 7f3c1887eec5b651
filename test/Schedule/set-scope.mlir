// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// set_scope of an intermediate buffer: its allocation and every access see
// the new scope.
// CHECK-LABEL: func.func @shared
// CHECK:         %[[B:.+]] = tir.alloc_buffer : memref<8x8xf32, "shared">
// CHECK:         tir.store %{{.+}}, %[[B]][%{{.+}}, %{{.+}}] : memref<8x8xf32, "shared">
// CHECK:         tir.load %[[B]][%{{.+}}, %{{.+}}] : memref<8x8xf32, "shared">
func.func @shared(%A: memref<8x8xf32>, %C: memref<8x8xf32>) {
  %B = tir.alloc_buffer : memref<8x8xf32>
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x8xf32>
        tir.store %a, %B[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      tir.block "C"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %b = tir.load %B[%vi, %vj] : memref<8x8xf32>
        tir.store %b, %C[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.set_scope %b {buffer_index = 0, storage_scope = "shared"} : !transform.any_op
    transform.yield
  }
}

// -----

// Back to global: the memory space goes; the scope a buffer has already is
// no change.
// CHECK-LABEL: func.func @global
// CHECK:         tir.alloc_buffer : memref<4xf32>
// CHECK-NOT:     "local"
// CHECK:         return
func.func @global(%A: memref<4xf32>, %C: memref<4xf32>) {
  %B = tir.alloc_buffer : memref<4xf32, "local">
  tir.for %i = 0 to 4 {
    tir.block "B"(%vi = spatial(4, %i)) {
      %a = tir.load %A[%vi] : memref<4xf32>
      tir.store %a, %B[%vi] : memref<4xf32, "local">
    }
  }
  tir.for %i = 0 to 4 {
    tir.block "C"(%vi = spatial(4, %i)) {
      %b = tir.load %B[%vi] : memref<4xf32, "local">
      tir.store %b, %C[%vi] : memref<4xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.set_scope %b {buffer_index = 0, storage_scope = "local"} : !transform.any_op
    transform.tir.set_scope %b {buffer_index = 0, storage_scope = "global"} : !transform.any_op
    transform.yield
  }
}

// -----

// A buffer matched on a region of the buffer follows it into the scope.
// (The block lists its regions: inferred regions do not yet see a store
// through a matched buffer as a write of its source.)
// CHECK-LABEL: func.func @matched
// CHECK:         tir.alloc_buffer : memref<8xf32, "shared">
// CHECK:         tir.match_buffer %{{.+}} : memref<8xf32, "shared"> -> memref<f32, strided<[], offset: ?>, "shared">
func.func @matched(%A: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) reads(%A[%vi] : memref<8xf32>) writes(%B[%vi] : memref<8xf32>) {
      %sub = tir.match_buffer %B[%vi : %vi + 1] : memref<8xf32> -> memref<f32, strided<[], offset: ?>>
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %sub[] : memref<f32, strided<[], offset: ?>>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.set_scope %b {buffer_index = 0, storage_scope = "shared"} : !transform.any_op
    transform.yield
  }
}
