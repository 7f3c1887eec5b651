// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// The region a block reads of a buffer is the one given: the block lists
// its regions, the annotation names the buffer's index; annotating the
// same buffer again replaces the region and keeps one index.
// CHECK-LABEL: func.func @stencil
// CHECK:         tir.block "B"(%[[VI:.+]] = spatial(62, %{{.+}})) reads(%{{.+}}[%[[VI]] : %[[VI]] + 3] : memref<64xf32>) writes(%{{.+}}[%[[VI]]] : memref<62xf32>) annotations {explicit_read_region = [0]} {
func.func @stencil(%A: memref<64xf32>, %B: memref<62xf32>) {
  tir.for %i = 0 to 62 {
    tir.block "B"(%vi = spatial(62, %i)) {
      %a = tir.load %A[%vi] : memref<64xf32>
      %b = tir.load %A[%vi + 2] : memref<64xf32>
      %s = arith.addf %a, %b : f32
      tir.store %s, %B[%vi] : memref<62xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.annotate_buffer_access %b {buffer_index = 0, buf_type = "read", gen_new_ranges = affine_map<(d0) -> (d0 - 1, d0 + 1)>} : !transform.any_op
    transform.tir.annotate_buffer_access %b {buffer_index = 0, buf_type = "read", gen_new_ranges = affine_map<(d0) -> (d0, d0 + 3)>} : !transform.any_op
    transform.yield
  }
}

// -----

// A read region of a gather whose index the body computes (one of two
// neighbours, by a table): compute_at of the producer then computes
// the window the annotation gives.
// CHECK-LABEL: func.func @gather
// CHECK:         tir.for %[[I:.+]] = 0 to 8 {
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 2 {
// CHECK-NEXT:        tir.block "P"(%{{.+}} = spatial(16, %[[I]] * 2 + %{{.+}}))
// CHECK:           tir.block "G"(%[[VG:.+]] = spatial(8, %[[I]])) reads(%{{.+}}[%[[VG]]], %{{.+}}[%[[VG]] * 2 : %[[VG]] * 2 + 2] : memref<8xi32>, memref<16xf32>) writes(%{{.+}}[%[[VG]]] : memref<8xf32>) annotations {explicit_read_region = [1]}
func.func @gather(%A: memref<16xf32>, %I: memref<8xi32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<16xf32>
  tir.for %i = 0 to 16 {
    tir.block "P"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi] : memref<16xf32>
      tir.store %a, %B[%vi] : memref<16xf32>
    }
  }
  tir.for %i = 0 to 8 {
    tir.block "G"(%vi = spatial(8, %i)) {
      %o = tir.load %I[%vi] : memref<8xi32>
      %two = arith.constant 2 : i32
      %r = arith.remui %o, %two : i32
      %x = arith.index_cast %r : i32 to index
      %b = tir.load %B[%vi * 2 + %x] : memref<16xf32>
      tir.store %b, %C[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.tir.get_block "G" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.annotate_buffer_access %g {buffer_index = 1, buf_type = "read", gen_new_ranges = affine_map<(d0) -> (d0 * 2, d0 * 2 + 2)>} : !transform.any_op
    %p = transform.tir.get_block "P" in %root : (!transform.any_op) -> !transform.any_op
    %l:1 = transform.tir.get_loops %g : (!transform.any_op) -> !transform.any_op
    transform.tir.compute_at %p at %l#0 : !transform.any_op, !transform.any_op
    transform.yield
  }
}
