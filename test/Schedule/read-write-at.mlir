// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// read_at of A at loop k0: the statements of k0 that read A read a local
// copy, filled first by "A_local" over the region they read (relaxed over
// k1); its iteration variables are the loops the region depends on.
// CHECK-LABEL: func.func @read
// CHECK:         %[[AL:A_local]] = tir.alloc_buffer : memref<16x16xf32, "local">
// CHECK:         tir.for %[[I:.+]] = 0 to 16 {
// CHECK-NEXT:      tir.for %[[K0:.+]] = 0 to 4 {
// CHECK-NEXT:        tir.block "A_local"(%[[V0:.+]] = spatial(16, %[[I]]), %[[V1:.+]] = spatial(4, %[[K0]])) reads(%{{.+}}[%[[V0]], %[[V1]] * 4 : %[[V1]] * 4 + 4] : memref<16x16xf32>) writes(%[[AL]][%[[V0]], %[[V1]] * 4 : %[[V1]] * 4 + 4] : memref<16x16xf32, "local">) annotations {auto_copy = true} {
// CHECK-NEXT:          tir.for %[[AX0:.+]] = 0 to 1 {
// CHECK-NEXT:            tir.for %[[AX1:.+]] = 0 to 4 {
// CHECK-NEXT:              %[[X:.+]] = tir.load %{{.+}}[%[[V0]] + %[[AX0]], %[[V1]] * 4 + %[[AX1]]] : memref<16x16xf32>
// CHECK-NEXT:              tir.store %[[X]], %[[AL]][%[[V0]] + %[[AX0]], %[[V1]] * 4 + %[[AX1]]] : memref<16x16xf32, "local">
// CHECK:             tir.block "S"
// CHECK:               tir.load %[[AL]]
func.func @read(%A: memref<16x16xf32> {tir.name = "A"}, %C: memref<16xf32> {tir.name = "C"}) {
  tir.for %i = 0 to 16 {
    tir.for %k0 = 0 to 4 {
      tir.for %k1 = 0 to 4 {
        tir.block "S"(%vi = spatial(16, %i), %vk = reduce(16, %k0 * 4 + %k1)) {
          tir.init {
            %z = arith.constant 0.0 : f32
            tir.store %z, %C[%vi] : memref<16xf32>
          }
          %c = tir.load %C[%vi] : memref<16xf32>
          %a = tir.load %A[%vi, %vk] : memref<16x16xf32>
          %s = arith.addf %c, %a : f32
          tir.store %s, %C[%vi] : memref<16xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %l:3 = transform.tir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %c = transform.tir.read_at %s at %l#1 {read_buffer_index = 0, storage_scope = "local"} : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// write_at of B at loop i: the statements writing B write a copy, written
// back after them.
// CHECK-LABEL: func.func @write
// CHECK:         tir.for %[[I:.+]] = 0 to 4 {
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 8 {
// CHECK-NEXT:        tir.block "B"
// CHECK:               tir.store %{{.+}}, %[[BS:.+]][%{{.+}}, %{{.+}}] : memref<4x8xf32, "shared">
// CHECK:           tir.block "B_shared"(%[[V0:.+]] = spatial(4, %[[I]])) reads(%[[BS]][%[[V0]], 0 : 8] : memref<4x8xf32, "shared">) writes(%{{.+}}[%[[V0]], 0 : 8] : memref<4x8xf32>) annotations {auto_copy = true}
func.func @write(%A: memref<4x8xf32> {tir.name = "A"}, %B: memref<4x8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 8 {
      tir.block "B"(%vi = spatial(4, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<4x8xf32>
        tir.store %a, %B[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l:2 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %c = transform.tir.write_at %b at %l#0 {write_buffer_index = 0, storage_scope = "shared"} : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}
