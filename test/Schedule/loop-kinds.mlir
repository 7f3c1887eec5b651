// RUN: tir-opt %s --transform-interpreter | FileCheck %s

// parallel / vectorize / unroll / bind set the loop kind, annotate and
// unannotate edit loop and block annotations; handles stay valid.
// CHECK-LABEL: func.func @kinds
// CHECK:         tir.for %{{.+}} = 0 to 4 parallel annotations {keep = 1 : i64} {
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 8 unrolled {
// CHECK-NEXT:        tir.for %{{.+}} = 0 to 16 vectorized {
// CHECK-NEXT:          tir.block "C"
// CHECK-SAME:            annotations {pragma = "x"}
// CHECK:         tir.for %{{.+}} = 0 to 32 thread_binding<"threadIdx.x"> {
// CHECK-NEXT:      tir.block "D"
// CHECK-NOT:       annotations
func.func @kinds(%A: memref<4x8x16xf32>, %B: memref<32xf32>, %C: memref<4x8x16xf32>, %D: memref<32xf32>) {
  tir.for %i = 0 to 4 annotations {keep = 1 : i64, drop = 2 : i64} {
    tir.for %j = 0 to 8 {
      tir.for %k = 0 to 16 {
        tir.block "C"(%vi = spatial(4, %i), %vj = spatial(8, %j), %vk = spatial(16, %k)) {
          %a = tir.load %A[%vi, %vj, %vk] : memref<4x8x16xf32>
          tir.store %a, %C[%vi, %vj, %vk] : memref<4x8x16xf32>
        }
      }
    }
  }
  tir.for %t = 0 to 32 {
    tir.block "D"(%vt = spatial(32, %t)) annotations {gone = true} {
      %b = tir.load %B[%vt] : memref<32xf32>
      tir.store %b, %D[%vt] : memref<32xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tir.get_loops %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.tir.parallel %i : !transform.any_op
    transform.tir.unroll %j : !transform.any_op
    transform.tir.vectorize %k : !transform.any_op
    transform.tir.unannotate %i "drop" : !transform.any_op
    transform.tir.annotate "pragma" = "x" to %c : !transform.any_op
    %d = transform.tir.get_block "D" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tir.get_loops %d : (!transform.any_op) -> !transform.any_op
    transform.tir.bind %t "threadIdx.x" : !transform.any_op
    transform.tir.unannotate %d "gone" : !transform.any_op
    transform.yield
  }
}
