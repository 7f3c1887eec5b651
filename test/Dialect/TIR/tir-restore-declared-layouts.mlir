// RUN: tir-opt %s --tir-restore-declared-layouts --split-input-file | FileCheck %s

// An input re-laid out in 4 x 4 tiles with a pad value, and an output
// re-laid out without padding: both take their declared types back. The
// function works on buffers of the scheduled layouts: the input's is
// filled with the pad value, then with the caller's elements through the
// map; the output's is copied in too (the function writes only 14 of its
// 16 elements: the other two go back as they came) and goes back to the
// caller before the return.
// CHECK-LABEL: func.func @tiles
// CHECK-SAME:    (%[[A:.+]]: memref<14xi32> {tir.name = "A"}, %[[B:.+]]: memref<16xi32> {tir.name = "B"})
// CHECK-NEXT:    %[[BL:.+]] = tir.alloc_buffer : memref<2x8xi32>
// CHECK-NEXT:    %[[AL:.+]] = tir.alloc_buffer : memref<4x4xi32>
// CHECK:         tir.block "B_layout_in"
// CHECK:         tir.for %{{.+}} = 0 to 4 {
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 4 {
// CHECK-NEXT:        tir.block "A_layout_pad"(%[[P0:.+]] = spatial(4, %{{.+}}), %[[P1:.+]] = spatial(4, %{{.+}})) {
// CHECK-NEXT:          %[[PAD:.+]] = arith.constant 7 : i32
// CHECK-NEXT:          tir.store %[[PAD]], %[[AL]][%[[P0]], %[[P1]]]
// CHECK:         tir.for %{{.+}} = 0 to 14 {
// CHECK-NEXT:      tir.block "A_layout_in"(%[[V:.+]] = spatial(14, %{{.+}})) {
// CHECK-NEXT:        %[[X:.+]] = tir.load %[[A]][%[[V]]] : memref<14xi32>
// CHECK-NEXT:        tir.store %[[X]], %[[AL]][%[[V]] floordiv 4, %[[V]] mod 4]
// CHECK:         tir.block "B"
// CHECK:           tir.load %[[AL]]
// CHECK:           tir.store %{{.+}}, %[[BL]]
// CHECK:         tir.for %{{.+}} = 0 to 16 {
// CHECK-NEXT:      tir.block "B_layout_out"(%[[W:.+]] = spatial(16, %{{.+}})) {
// CHECK-NEXT:        %[[Y:.+]] = tir.load %[[BL]][%[[W]] floordiv 8, %[[W]] mod 8] : memref<2x8xi32>
// CHECK-NEXT:        tir.store %[[Y]], %[[B]][%[[W]]] : memref<16xi32>
// CHECK:         return
func.func @tiles(%A: memref<4x4xi32> {tir.name = "A", tir.declared_layout = {type = memref<14xi32>, index_map = affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>, pad_value = 7 : i32}},
                 %B: memref<2x8xi32> {tir.name = "B", tir.declared_layout = {type = memref<16xi32>, index_map = affine_map<(d0) -> (d0 floordiv 8, d0 mod 8)>}}) {
  tir.for %i = 0 to 14 {
    tir.block "B"(%vi = spatial(14, %i)) {
      %a = tir.load %A[%vi floordiv 4, %vi mod 4] : memref<4x4xi32>
      tir.store %a, %B[%vi floordiv 8, %vi mod 8] : memref<2x8xi32>
    }
  }
  return
}

// -----

// A parameter only a call uses (which may read and write it): copied in
// and back out.
// CHECK-LABEL: func.func @opaque
// CHECK-SAME:    (%[[A:.+]]: memref<16xf32> {tir.name = "A"})
// CHECK:         %[[AL:.+]] = tir.alloc_buffer : memref<4x4xf32>
// CHECK:         tir.block "A_layout_in"
// CHECK:         tir.call "fill"(%[[AL]])
// CHECK:         tir.block "A_layout_out"
// CHECK:         return
func.func @opaque(%A: memref<4x4xf32> {tir.name = "A", tir.declared_layout = {type = memref<16xf32>, index_map = affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>}}) {
  tir.call "fill"(%A) : (memref<4x4xf32>) -> ()
  return
}
