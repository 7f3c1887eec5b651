// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// cache_read of an input (the copy at the start of the scope, whole
// buffer), of an intermediate (just before its consumer), and cache_write
// of the output (copied back at the end): TVM's cache_read_elementwise.
// CHECK-LABEL: func.func @elementwise
// CHECK:         %B = tir.alloc_buffer : memref<128x128xf32>
// CHECK-NEXT:    %[[AG:.+]] = tir.alloc_buffer : memref<128x128xf32>
// CHECK-NEXT:    %[[BL:.+]] = tir.alloc_buffer : memref<128x128xf32, "local">
// CHECK-NEXT:    %[[CL:.+]] = tir.alloc_buffer : memref<128x128xf32, "local">
// CHECK:         tir.block "A_global"(%[[V0:.+]] = spatial(128, %ax0), %[[V1:.+]] = spatial(128, %ax1))
// CHECK:           tir.store %{{.+}}, %[[AG]][%[[V0]], %[[V1]]]
// CHECK:         tir.block "B"
// CHECK:           tir.load %[[AG]]
// CHECK:         tir.block "B_local"
// CHECK:         tir.block "C"
// CHECK:           tir.load %[[BL]]
// CHECK:           tir.store %{{.+}}, %[[CL]]
// CHECK:         tir.block "C_local"
// CHECK:           tir.load %[[CL]]
// CHECK-NEXT:      tir.store %{{.+}}, %arg1
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  }
// CHECK-NEXT:  return
func.func @elementwise(%A: memref<128x128xf32> {tir.name = "A"}, %C: memref<128x128xf32> {tir.name = "C"}) {
  %B = tir.alloc_buffer : memref<128x128xf32>
  tir.for %i = 0 to 128 {
    tir.for %j = 0 to 128 {
      tir.block "B"(%vi = spatial(128, %i), %vj = spatial(128, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<128x128xf32>
        %two = arith.constant 2.0 : f32
        %b = arith.mulf %a, %two : f32
        tir.store %b, %B[%vi, %vj] : memref<128x128xf32>
      }
    }
  }
  tir.for %i = 0 to 128 {
    tir.for %j = 0 to 128 {
      tir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j)) {
        %b = tir.load %B[%vi, %vj] : memref<128x128xf32>
        %one = arith.constant 1.0 : f32
        %c = arith.addf %b, %one : f32
        tir.store %c, %C[%vi, %vj] : memref<128x128xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %s0 = transform.tir.cache_read %b {read_buffer_index = 0, storage_scope = "global"} : (!transform.any_op) -> !transform.any_op
    %t = transform.tir.cache_read %c {read_buffer_index = 0, storage_scope = "local"} : (!transform.any_op) -> !transform.any_op
    %w = transform.tir.cache_write %c {write_buffer_index = 0, storage_scope = "local"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A producer inside a loop: the copy goes inside the loop before the
// consumer, covering what one iteration writes (full mode: the cache keeps
// the buffer's shape, the binding is i * 16 + ax0).
// CHECK-LABEL: func.func @in_loop
// CHECK:         tir.for %i = 0 to 8 {
// CHECK:           tir.block "A"
// CHECK:           tir.for %ax0 = 0 to 16 {
// CHECK-NEXT:        tir.block "T_global"(%{{.+}} = spatial(128, %i * 16 + %ax0))
// CHECK:           tir.block "B"
// CHECK:             tir.load %T_global
func.func @in_loop(%A: memref<128xf32> {tir.name = "A"}, %B: memref<128xf32> {tir.name = "B"}) {
  %T = tir.alloc_buffer : memref<128xf32>
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 16 {
      tir.block "A"(%vi = spatial(128, %i * 16 + %j)) {
        %a = tir.load %A[%vi] : memref<128xf32>
        tir.store %a, %T[%vi] : memref<128xf32>
      }
    }
    tir.for %j = 0 to 16 {
      tir.block "B"(%vi = spatial(128, %i * 16 + %j)) {
        %t = tir.load %T[%vi] : memref<128xf32>
        tir.store %t, %B[%vi] : memref<128xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.tir.cache_read %b {read_buffer_index = 0, storage_scope = "global"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A writer tiled as `i * 8 + j` and cut at the buffer's end (120 of 128):
// the tiles cover a dense box, cut to the buffer, so the cache has the
// buffer's 120 elements and the copy back needs no guard.
// CHECK-LABEL: func.func @tiled_predicated_writer
// CHECK:         %A_shared = tir.alloc_buffer : memref<120xf32, "shared">
// CHECK:         tir.block "producer"(%{{.+}} = spatial(120, %{{.+}} * 8 + %{{.+}})) where(
// CHECK:           tir.store %{{.+}}, %A_shared[
// CHECK:         tir.for %[[AX:.+]] = 0 to 120 {
// CHECK-NEXT:      tir.block "A_shared"(%[[V:.+]] = spatial(120, %[[AX]])) reads(%A_shared[%[[V]]] : memref<120xf32, "shared">) writes(%A[%[[V]]] : memref<120xf32>) {
func.func @tiled_predicated_writer(%B: memref<120xf32> {tir.name = "B"}) {
  %A = tir.alloc_buffer : memref<120xf32>
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 8 {
      tir.block "producer"(%ax = spatial(120, %i * 8 + %j)) where(%i * 8 + %j < 120) {
        %z = arith.constant 0.0 : f32
        tir.store %z, %A[%ax] : memref<120xf32>
      }
    }
  }
  tir.for %i = 0 to 120 {
    tir.block "consumer"(%vi = spatial(120, %i)) {
      %a = tir.load %A[%vi] : memref<120xf32>
      tir.store %a, %B[%vi] : memref<120xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "producer" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.cache_write %b {write_buffer_index = 0, storage_scope = "shared"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// In a block's scope: the cache is the scope block's (one tile of it per
// execution), indexed relative to the scope's variable; the copy reads the
// tile after its writer, inside the scope.
// CHECK-LABEL: func.func @under_scope
// CHECK:         tir.block "scope"(%[[I:.+]] = spatial(4, %{{.+}}))
// CHECK-NEXT:      %A_local = tir.alloc_buffer : memref<4xf32, "local">
// CHECK:           tir.block "A"
// CHECK:           tir.for %[[AX:.+]] = 0 to 4 {
// CHECK-NEXT:        tir.block "A_local"(%[[V:.+]] = spatial(4, %[[AX]]))
// CHECK:               tir.load %A[%[[V]] + %[[I]] * 4]
// CHECK:               tir.store %{{.+}}, %A_local[%[[V]]]
// CHECK:           tir.block "B"(%[[VI:.+]] = spatial(16, %[[I]] * 4 + %{{.+}}))
// CHECK:             tir.load %A_local[%[[VI]] - %[[I]] * 4]
func.func @under_scope(%B: memref<16xf32> {tir.name = "B"}) {
  %A = tir.alloc_buffer : memref<16xf32>
  tir.for %i0 = 0 to 4 {
    tir.block "scope"(%i = spatial(4, %i0)) {
      tir.for %x = 0 to 4 {
        tir.block "A"(%vi = spatial(16, %i * 4 + %x)) {
          %one = arith.constant 1.0 : f32
          tir.store %one, %A[%vi] : memref<16xf32>
        }
      }
      tir.for %x = 0 to 4 {
        tir.block "B"(%vi = spatial(16, %i * 4 + %x)) {
          %a = tir.load %A[%vi] : memref<16xf32>
          %s = arith.addf %a, %a : f32
          tir.store %s, %B[%vi] : memref<16xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.cache_read %b {read_buffer_index = 0, storage_scope = "local"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// cache_inplace: a block that updates B in place works on a local copy,
// filled right before it and copied back right after it, in the loop that
// holds it (one element per iteration; the cache keeps B's shape there).
// CHECK-LABEL: func.func @in_place
// CHECK:         %B_local = tir.alloc_buffer : memref<8xf32, "local">
// CHECK:         tir.for %{{.+}} = 0 to 3 {
// CHECK-NEXT:      tir.for %[[I:.+]] = 0 to 8 {
// CHECK-NEXT:        tir.for %[[A0:.+]] = 0 to 1 {
// CHECK-NEXT:          tir.block "B_local"(%[[V0:.+]] = spatial(8, %[[I]] + %[[A0]]))
// CHECK:                 tir.store %{{.+}}, %B_local[%[[V0]]]
// CHECK:             tir.block "update"
// CHECK:               tir.load %B_local[
// CHECK:               tir.store %{{.+}}, %B_local[
// CHECK:             tir.for %[[A1:.+]] = 0 to 1 {
// CHECK-NEXT:          tir.block "B_local"(%[[V1:.+]] = spatial(8, %[[I]] + %[[A1]]))
// CHECK:                 tir.load %B_local[%[[V1]]]
// CHECK:                 tir.store %{{.+}}, %arg0[%[[V1]]]
func.func @in_place(%B: memref<8xf32> {tir.name = "B"}) {
  tir.for %t = 0 to 3 {
    tir.for %i = 0 to 8 {
      tir.block "update"(%vt = spatial(3, %t), %vi = spatial(8, %i)) {
        %b = tir.load %B[%vi] : memref<8xf32>
        %s = arith.addf %b, %b : f32
        tir.store %s, %B[%vi] : memref<8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "update" in %root : (!transform.any_op) -> !transform.any_op
    %in, %out = transform.tir.cache_inplace %b {read_buffer_index = 0, storage_scope = "local"} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A constant buffer: the copy goes after the allocate_const that holds the
// statements after it (TVM's AllocateConst), where the constant exists.
// CHECK-LABEL: func.func @constant
// CHECK:         %K_global = tir.alloc_buffer : memref<4xf32>
// CHECK:         %K = tir.allocate_const
// CHECK-NEXT:    tir.for %[[AX:.+]] = 0 to 4 {
// CHECK-NEXT:      tir.block "K_global"
// CHECK:               tir.load %K[
func.func @constant(%A: memref<4xf32> {tir.name = "A"}, %C: memref<4xf32> {tir.name = "C"}) {
  %K = tir.allocate_const : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
  tir.for %i = 0 to 4 {
    tir.block "C"(%vi = spatial(4, %i)) {
      %a = tir.load %A[%vi] : memref<4xf32>
      %k = tir.load %K[%vi] : memref<4xf32>
      %s = arith.mulf %a, %k : f32
      tir.store %s, %C[%vi] : memref<4xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.cache_read %b {read_buffer_index = 1, storage_scope = "global"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
