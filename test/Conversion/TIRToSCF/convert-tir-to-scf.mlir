// RUN: tir-opt %s --convert-tir-to-scf --split-input-file --verify-diagnostics | FileCheck %s

// A split with a predicate: bindings become arith over the loop variables,
// the predicate an scf.if around the body.
// CHECK-LABEL: func.func @predicate
// CHECK-SAME:    (%[[A:.+]]: memref<10xf32>)
// CHECK:         scf.for %[[I0:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:           scf.for %[[I1:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:             %[[C4:.+]] = arith.constant 4 : index
// CHECK-NEXT:        %[[M:.+]] = arith.muli %[[I0]], %[[C4]] overflow<nsw> : index
// CHECK-NEXT:        %[[VI:.+]] = arith.addi %[[M]], %[[I1]] : index
// CHECK:             %[[OK:.+]] = arith.cmpi sge, %{{.+}}, %{{.+}} : index
// CHECK-NEXT:        scf.if %[[OK]] {
// CHECK-NEXT:          %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:          memref.store %[[ONE]], %[[A]][%[[VI]]] : memref<10xf32>
// CHECK-NOT:     tir.
func.func @predicate(%A: memref<10xf32>) {
  tir.for %i0 = 0 to 3 {
    tir.for %i1 = 0 to 4 {
      tir.block "B"(%vi = spatial(10, %i0 * 4 + %i1)) where(%i0 * 4 + %i1 < 10) {
        %c = arith.constant 1.0 : f32
        tir.store %c, %A[%vi] : memref<10xf32>
      }
    }
  }
  return
}

// -----

// Loop kinds: parallel becomes scf.parallel; vectorized and unrolled keep
// their kind for later passes; a dynamically sized buffer goes on the heap
// and is freed at the end of its scope.
// CHECK-LABEL: func.func @kinds
// CHECK-SAME:    (%[[N:.+]]: index, %[[A:.+]]: memref<?x8xf32>)
// CHECK:         %[[T:.+]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x8xf32>
// CHECK:         scf.parallel (%[[I:.+]]) = (%{{.+}}) to (%[[N]]) step (%{{.+}}) {
// CHECK:           scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK:             memref.load %[[A]][%[[I]], %[[J]]]
// CHECK:             memref.store %{{.+}}, %[[T]][%[[I]], %[[J]]]
// CHECK:           } {tir.loop_kind = #tir<for_kind vectorized>}
// CHECK:         scf.for
// CHECK:         } {tir.annotations = {pragma_unroll_explicit = 1 : i64}, tir.loop_kind = #tir<for_kind unrolled>}
// CHECK:         memref.dealloc %[[T]] : memref<?x8xf32>
// CHECK-NEXT:    return
func.func @kinds(%n: index, %A: memref<?x8xf32>) {
  %T = tir.alloc_buffer(%n) : memref<?x8xf32>
  tir.for %i = 0 to %n parallel {
    tir.for %j = 0 to 8 vectorized {
      tir.block "copy"(%vi = spatial(%n, %i), %vj = spatial(8, %j)) {
        %x = tir.load %A[%vi, %vj] : memref<?x8xf32>
        tir.store %x, %T[%vi, %vj] : memref<?x8xf32>
      }
    }
  }
  tir.for %u = 0 to 4 unrolled annotations {pragma_unroll_explicit = 1} {
  }
  return
}

// -----

// Buffers of elements without a fixed byte size (index) go to the heap.
// CHECK-LABEL: func.func @index_buffer
// CHECK-NEXT:    %[[T:.+]] = memref.alloc() {alignment = 64 : i64} : memref<4xindex>
// CHECK-NEXT:    memref.dealloc %[[T]] : memref<4xindex>
// CHECK-NEXT:    return
func.func @index_buffer() {
  %T = tir.alloc_buffer : memref<4xindex>
  return
}

// -----

// A refusal comes before any rewrite (checked in refusal-leaves-ir.mlir).
func.func @thread_bound(%A: memref<32xf32>) {
  // expected-error @+1 {{is bound to 'threadIdx.x'; thread-bound loops are lowered by the GPU pipeline, not convert-tir-to-scf}}
  tir.for %t = 0 to 32 thread_binding<"threadIdx.x"> {
    tir.block "B"(%vi = spatial(32, %t)) {
      %c = arith.constant 0.0 : f32
      tir.store %c, %A[%vi] : memref<32xf32>
    }
  }
  return
}

// -----

// A matched region is a subview at the region's start; unit dimensions
// the view leaves out are dropped.
// CHECK-LABEL: func.func @match
// CHECK: scf.for %[[I:.*]] =
// CHECK: %[[START:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK: %[[M:.*]] = memref.subview %{{.*}}[%{{.*}}, %[[START]]] [1, 16] [1, 1] : memref<4x64xf32> to memref<16xf32, strided<[1], offset: ?>>
// CHECK: tir.call "consume"(%[[M]])
func.func @match(%A: memref<4x64xf32>) {
  tir.for %i = 0 to 4 {
    tir.block "B"(%vi = spatial(4, %i)) {
      %M = tir.match_buffer %A[2, %vi * 16 : %vi * 16 + 16] : memref<4x64xf32> -> memref<16xf32, strided<[1], offset: ?>>
      tir.call "consume"(%M) : (memref<16xf32, strided<[1], offset: ?>>) -> ()
    }
  }
  return
}

// -----

func.func @match_dynamic(%A: memref<64xf32>, %n: index) {
  tir.for %i = 0 to 4 {
    tir.block "B"(%vi = spatial(4, %i)) {
      // expected-error @+1 {{matches a region of a size known only at run time}}
      %M = tir.match_buffer %A[0 : %n] : memref<64xf32> -> memref<?xf32, strided<[1], offset: ?>>
    }
  }
  return
}
