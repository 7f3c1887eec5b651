// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// compute_inline of an element-wise producer: the consumer computes A * 2
// itself; the producer's loops and buffer are gone.
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME:    (%[[A:.+]]: memref<8x4xf32>, %[[C:.+]]: memref<8x4xf32>)
// CHECK-NOT:     tir.alloc_buffer
// CHECK:         tir.for %{{.+}} = 0 to 8 {
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 4 {
// CHECK-NEXT:        tir.block "C"(%[[VI:.+]] = spatial(8, %{{.+}}), %[[VJ:.+]] = spatial(4, %{{.+}})) {
// CHECK-NEXT:          %[[X:.+]] = tir.load %[[A]][%[[VI]], %[[VJ]]]
// CHECK-NEXT:          %[[TWO:.+]] = arith.constant 2.0
// CHECK-NEXT:          %[[M:.+]] = arith.mulf %[[X]], %[[TWO]]
// CHECK-NEXT:          %[[ONE:.+]] = arith.constant 1.0
// CHECK-NEXT:          %[[S:.+]] = arith.addf %[[M]], %[[ONE]]
// CHECK-NEXT:          tir.store %[[S]], %[[C]][%[[VI]], %[[VJ]]]
// CHECK-NOT:     tir.block
// CHECK:         return
func.func @elementwise(%A: memref<8x4xf32>, %C: memref<8x4xf32>) {
  %B = tir.alloc_buffer : memref<8x4xf32>
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 4 {
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(4, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x4xf32>
        %two = arith.constant 2.0 : f32
        %m = arith.mulf %a, %two : f32
        tir.store %m, %B[%vi, %vj] : memref<8x4xf32>
      }
    }
  }
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 4 {
      tir.block "C"(%vi = spatial(8, %i), %vj = spatial(4, %j)) {
        %b = tir.load %B[%vi, %vj] : memref<8x4xf32>
        %one = arith.constant 1.0 : f32
        %s = arith.addf %b, %one : f32
        tir.store %s, %C[%vi, %vj] : memref<8x4xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.compute_inline %b : !transform.any_op
    transform.yield
  }
}

// -----

// A transposing producer (B[vj, vi] = A[vi, vj]) read at shifted indices:
// the load B[x + 1, y] is A[y, x + 1]. The consumer's listed reads name A
// in B's place, at the region it now reads.
// CHECK-LABEL: func.func @transposed
// CHECK:         tir.block "C"(%[[X:.+]] = spatial(7, %{{.+}}), %[[Y:.+]] = spatial(8, %{{.+}})) reads(%{{.+}}[%[[Y]], %[[X]] + 1] : memref<8x8xf32>) writes(
// CHECK-NEXT:      %[[L:.+]] = tir.load %{{.+}}[%[[Y]], %[[X]] + 1] : memref<8x8xf32>
// CHECK-NEXT:      tir.store %[[L]]
func.func @transposed(%A: memref<8x8xf32>, %C: memref<7x8xf32>) {
  %B = tir.alloc_buffer : memref<8x8xf32>
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x8xf32>
        tir.store %a, %B[%vj, %vi] : memref<8x8xf32>
      }
    }
  }
  tir.for %i = 0 to 7 {
    tir.for %j = 0 to 8 {
      tir.block "C"(%x = spatial(7, %i), %y = spatial(8, %j))
          reads(%B[%x + 1, %y] : memref<8x8xf32>) writes(%C[%x, %y] : memref<7x8xf32>) {
        %b = tir.load %B[%x + 1, %y] : memref<8x8xf32>
        tir.store %b, %C[%x, %y] : memref<7x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.compute_inline %b : !transform.any_op
    transform.yield
  }
}

// -----

// A producer storing at a fused index (B[vi * 4 + vj], vj in [0, 4)): a
// bijection, inverted at the load B[x] as vi = x floordiv 4, vj = x mod 4.
// CHECK-LABEL: func.func @fused_store
// CHECK:         tir.block "C"(%[[X:.+]] = spatial(8, %{{.+}})) {
// CHECK-NEXT:      %[[L:.+]] = tir.load %{{.+}}[%[[X]] floordiv 4, %[[X]] mod 4] : memref<2x4xf32>
// CHECK-NEXT:      tir.store %[[L]]
func.func @fused_store(%A: memref<2x4xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 2 {
    tir.for %j = 0 to 4 {
      tir.block "B"(%vi = spatial(2, %i), %vj = spatial(4, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<2x4xf32>
        tir.store %a, %B[%vi * 4 + %vj] : memref<8xf32>
      }
    }
  }
  tir.for %i = 0 to 8 {
    tir.block "C"(%x = spatial(8, %i)) {
      %b = tir.load %B[%x] : memref<8xf32>
      tir.store %b, %C[%x] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.compute_inline %b : !transform.any_op
    transform.yield
  }
}

// -----

// A producer storing a 1-D iteration as 2-D (B[v floordiv 4, v mod 4] in
// a 2 x 4 buffer, a bijection): the load B[x, y] is v = x * 4 + y.
// CHECK-LABEL: func.func @split_store
// CHECK:         tir.block "C"(%[[X:.+]] = spatial(2, %{{.+}}), %[[Y:.+]] = spatial(4, %{{.+}})) {
// CHECK-NEXT:      %[[L:.+]] = tir.load %{{.+}}[%[[X]] * 4 + %[[Y]]] : memref<8xf32>
// CHECK-NEXT:      tir.store %[[L]]
func.func @split_store(%A: memref<8xf32>, %C: memref<2x4xf32>) {
  %B = tir.alloc_buffer : memref<2x4xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%v = spatial(8, %i)) {
      %a = tir.load %A[%v] : memref<8xf32>
      tir.store %a, %B[%v floordiv 4, %v mod 4] : memref<2x4xf32>
    }
  }
  tir.for %i = 0 to 2 {
    tir.for %j = 0 to 4 {
      tir.block "C"(%x = spatial(2, %i), %y = spatial(4, %j)) {
        %b = tir.load %B[%x, %y] : memref<2x4xf32>
        tir.store %b, %C[%x, %y] : memref<2x4xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.compute_inline %b : !transform.any_op
    transform.yield
  }
}

// -----

// A value condition (TVM's T.where(B[i] < 10.0)) reads the producer's
// buffer outside the consumer block: it is inlined there too.
// CHECK-LABEL: func.func @condition
// CHECK:         tir.for %[[I:.+]] = 0 to 8 {
// CHECK-NEXT:      %[[A0:.+]] = tir.load %{{.+}}[%[[I]]]
// CHECK-NEXT:      %{{.+}} = arith.constant 2.0
// CHECK-NEXT:      %[[M0:.+]] = arith.mulf %[[A0]]
// CHECK:           %[[LT:.+]] = arith.cmpf olt, %[[M0]]
// CHECK-NEXT:      tir.block "C"(%{{.+}}) condition(%[[LT]]) {
// CHECK-NEXT:        tir.load %{{.+}}[%{{.+}}]
// CHECK-NEXT:        arith.constant 2.0
// CHECK-NEXT:        arith.mulf
func.func @condition(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      %two = arith.constant 2.0 : f32
      %m = arith.mulf %a, %two : f32
      tir.store %m, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %i = 0 to 8 {
    %b0 = tir.load %B[%i] : memref<8xf32>
    %ten = arith.constant 10.0 : f32
    %lt = arith.cmpf olt, %b0, %ten : f32
    tir.block "C"(%vi = spatial(8, %i)) condition(%lt) {
      %b = tir.load %B[%vi] : memref<8xf32>
      tir.store %b, %C[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.compute_inline %b : !transform.any_op
    transform.yield
  }
}

// -----

// reverse_compute_inline of an element-wise consumer: the producer stores
// A * 2 + 1 to C.
// CHECK-LABEL: func.func @reverse
// CHECK-SAME:    (%[[A:.+]]: memref<8xf32>, %[[C:.+]]: memref<8xf32>)
// CHECK-NOT:     tir.alloc_buffer
// CHECK:         tir.for %{{.+}} = 0 to 8 {
// CHECK-NEXT:      tir.block "B"(%[[VI:.+]] = spatial(8, %{{.+}})) {
// CHECK-NEXT:        %[[X:.+]] = tir.load %[[A]][%[[VI]]]
// CHECK-NEXT:        %{{.+}} = arith.constant 2.0
// CHECK-NEXT:        %[[M:.+]] = arith.mulf %[[X]]
// CHECK-NEXT:        %{{.+}} = arith.constant 1.0
// CHECK-NEXT:        %[[S:.+]] = arith.addf %[[M]]
// CHECK-NEXT:        tir.store %[[S]], %[[C]][%[[VI]]]
// CHECK-NOT:     tir.block
// CHECK:         return
func.func @reverse(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      %two = arith.constant 2.0 : f32
      %m = arith.mulf %a, %two : f32
      tir.store %m, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %i = 0 to 8 {
    tir.block "C"(%vi = spatial(8, %i)) {
      %b = tir.load %B[%vi] : memref<8xf32>
      %one = arith.constant 1.0 : f32
      %s = arith.addf %b, %one : f32
      tir.store %s, %C[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.reverse_compute_inline %c : !transform.any_op
    transform.yield
  }
}

// -----

// The consumer reads B[vi * 4 + vj] into a 2-D C: inverted, the producer
// writes C[v floordiv 4, v mod 4].
// CHECK-LABEL: func.func @reverse_fused
// CHECK:         tir.block "B"(%[[V:.+]] = spatial(16, %{{.+}})) {
// CHECK:           tir.store %{{.+}}, %{{.+}}[%[[V]] floordiv 4, %[[V]] mod 4] : memref<4x4xf32>
func.func @reverse_fused(%A: memref<16xf32>, %C: memref<4x4xf32>) {
  %B = tir.alloc_buffer : memref<16xf32>
  tir.for %i = 0 to 16 {
    tir.block "B"(%v = spatial(16, %i)) {
      %a = tir.load %A[%v] : memref<16xf32>
      tir.store %a, %B[%v] : memref<16xf32>
    }
  }
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 4 {
      tir.block "C"(%vi = spatial(4, %i), %vj = spatial(4, %j)) {
        %b = tir.load %B[%vi * 4 + %vj] : memref<16xf32>
        tir.store %b, %C[%vi, %vj] : memref<4x4xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.reverse_compute_inline %c : !transform.any_op
    transform.yield
  }
}

// -----

// The producer computes 8 elements, the consumer reads 6 of them: the
// producer gets the consumer's domain as a predicate.
// CHECK-LABEL: func.func @reverse_overcomputed
// CHECK:         tir.for %[[I:.+]] = 0 to 8 {
// CHECK-NEXT:      tir.block "B"(%{{.+}} = spatial(8, %[[I]])) where(%[[I]] < 6) {
func.func @reverse_overcomputed(%A: memref<8xf32>, %C: memref<6xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %i = 0 to 6 {
    tir.block "C"(%vi = spatial(6, %i)) {
      %b = tir.load %B[%vi] : memref<8xf32>
      tir.store %b, %C[%vi] : memref<6xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.reverse_compute_inline %c : !transform.any_op
    transform.yield
  }
}

// -----

// A producer with a tir.init whose regions leave out the read of its output
// (a complete block by TVM's rule, as TVM's batch-matmul epilogue test has
// it): its init and its update store to C, and the update reads C where it
// read B.
// CHECK-LABEL: func.func @reverse_init
// CHECK:         tir.block "S"(%[[VI:.+]] = spatial(4, %{{.+}})) reads(%{{.+}}[%[[VI]]] : memref<4xf32>) writes(%[[C:.+]][%[[VI]] + 2] : memref<6xf32>) {
// CHECK-NEXT:      tir.init {
// CHECK-NEXT:        %[[Z:.+]] = arith.constant 0.0
// CHECK-NEXT:        tir.store %[[Z]], %[[C]][%[[VI]] + 2]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[ACC:.+]] = tir.load %[[C]][%[[VI]] + 2]
// CHECK-NEXT:      %[[X:.+]] = tir.load
// CHECK-NEXT:      %[[S:.+]] = arith.addf %[[ACC]], %[[X]]
// CHECK-NEXT:      tir.store %[[S]], %[[C]][%[[VI]] + 2]
func.func @reverse_init(%A: memref<4xf32>, %C: memref<6xf32>) {
  %B = tir.alloc_buffer : memref<4xf32>
  tir.for %i = 0 to 4 {
    tir.block "S"(%vi = spatial(4, %i))
        reads(%A[%vi] : memref<4xf32>) writes(%B[%vi] : memref<4xf32>) {
      tir.init {
        %zero = arith.constant 0.0 : f32
        tir.store %zero, %B[%vi] : memref<4xf32>
      }
      %acc = tir.load %B[%vi] : memref<4xf32>
      %a = tir.load %A[%vi] : memref<4xf32>
      %s = arith.addf %acc, %a : f32
      tir.store %s, %B[%vi] : memref<4xf32>
    }
  }
  tir.for %i = 0 to 4 {
    tir.block "C"(%vi = spatial(4, %i)) {
      %b = tir.load %B[%vi] : memref<4xf32>
      tir.store %b, %C[%vi + 2] : memref<6xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.reverse_compute_inline %c : !transform.any_op
    transform.yield
  }
}
