// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// reindex_cache_read: the copy goes before the consumer (cache_read's
// place) and repeats its iteration; the cache is laid out by the index
// map over the consumer's variables. reindex_cache_write of the producer:
// it writes the transposed cache, copied back before the consumer.
// CHECK-LABEL: func.func @elementwise
// CHECK:         %[[BS:.+]] = tir.alloc_buffer : memref<16x4x2xf32, "shared">
// CHECK:         %[[AS:.+]] = tir.alloc_buffer : memref<16x8xf32, "shared">
// CHECK:         tir.block "B"(%[[VI:.+]] = spatial(8, %i), %[[VJ:.+]] = spatial(16, %j))
// CHECK:           tir.store %{{.+}}, %[[AS]][%[[VJ]], %[[VI]]]
// CHECK:         tir.for %i = 0 to 8 {
// CHECK-NEXT:      tir.for %j = 0 to 16 {
// CHECK-NEXT:        tir.block "B_shared"(%[[WI:.+]] = spatial(8, %i), %[[WJ:.+]] = spatial(16, %j))
// CHECK-NEXT:          %[[X:.+]] = tir.load %[[AS]][%[[WJ]], %[[WI]]]
// CHECK-NEXT:          tir.store %[[X]], %B[%[[WI]], %[[WJ]]]
// CHECK:         tir.block "B_shared"(%[[UI:.+]] = spatial(8, %i), %[[UJ:.+]] = spatial(16, %j))
// CHECK-NEXT:      %[[Y:.+]] = tir.load %B[%[[UI]], %[[UJ]]]
// CHECK-NEXT:      tir.store %[[Y]], %[[BS]][%[[UJ]], %[[UI]] floordiv 2, %[[UI]] mod 2]
// CHECK:         tir.block "C"(%[[CI:.+]] = spatial(8, %i), %[[CJ:.+]] = spatial(16, %j))
// CHECK-NEXT:      tir.load %[[BS]][%[[CJ]], %[[CI]] floordiv 2, %[[CI]] mod 2]
func.func @elementwise(%A: memref<8x16xf32> {tir.name = "A"}, %C: memref<8x16xf32> {tir.name = "C"}) {
  %B = tir.alloc_buffer : memref<8x16xf32>
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 16 {
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(16, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x16xf32>
        tir.store %a, %B[%vi, %vj] : memref<8x16xf32>
      }
    }
  }
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 16 {
      tir.block "C"(%vi = spatial(8, %i), %vj = spatial(16, %j)) {
        %b = tir.load %B[%vi, %vj] : memref<8x16xf32>
        tir.store %b, %C[%vi, %vj] : memref<8x16xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.tir.reindex_cache_read %c {read_buffer_index = 0, storage_scope = "shared", index_map = affine_map<(d0, d1) -> (d1, d0 floordiv 2, d0 mod 2)>} : (!transform.any_op) -> !transform.any_op
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tir.reindex_cache_write %b {write_buffer_index = 0, storage_scope = "shared", index_map = affine_map<(d0, d1) -> (d1, d0)>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
