// RUN: tir-opt %s --tir-inject-software-pipeline --split-input-file | FileCheck %s

// Two stages over buffers of the whole shape: iteration k's tile is loaded
// one step before it is used; the first load (prologue) and the last use
// (epilogue) are written out with constant iterations.
// CHECK-LABEL: func.func @two_stages
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    tir.for
// CHECK-NEXT:      tir.block "load"(%{{.+}} = spatial(16, %[[C0]] * 4 + %{{.+}}))
// CHECK-NOT:     tir.block "use"
// CHECK:         tir.for %[[K:.+]] = 1 to 4 {
// CHECK:           tir.block "load"(%{{.+}} = spatial(16, %[[K]] * 4 + %{{.+}}))
// CHECK:           %[[J:.+]] = arith.addi %[[K]], %c-1 : index
// CHECK-NEXT:      tir.for
// CHECK-NEXT:        tir.block "use"(%{{.+}} = spatial(16, %[[J]] * 4 + %{{.+}}))
// CHECK:         %[[C3:.+]] = arith.constant 3 : index
// CHECK-NEXT:    tir.for
// CHECK-NEXT:      tir.block "use"(%{{.+}} = spatial(16, %[[C3]] * 4 + %{{.+}}))
// CHECK-NOT:     tir.block
// CHECK-NOT:     software_pipeline
// CHECK:         return
func.func @two_stages(%A: memref<16xf32>, %B: memref<16xf32>) {
  %S = tir.alloc_buffer : memref<16xf32>
  tir.for %k = 0 to 4 annotations {software_pipeline_order = [0, 1], software_pipeline_stage = [0, 1]} {
    tir.for %x = 0 to 4 {
      tir.block "load"(%v = spatial(16, %k * 4 + %x)) {
        %0 = tir.load %A[%v] : memref<16xf32>
        tir.store %0, %S[%v] : memref<16xf32>
      }
    }
    tir.for %x = 0 to 4 {
      tir.block "use"(%v = spatial(16, %k * 4 + %x)) {
        %0 = tir.load %S[%v] : memref<16xf32>
        tir.store %0, %B[%v] : memref<16xf32>
      }
    }
  }
  return
}

// -----

// The order puts the use of iteration k - 1 before the load of iteration k
// within a step; the loop's kind and its other annotations stay.
// CHECK-LABEL: func.func @reordered
// CHECK:         tir.for %[[K:.+]] = 1 to 4 unrolled annotations {note = "kept"} {
// CHECK:           tir.block "use"
// CHECK:           tir.block "load"
// CHECK:         }
func.func @reordered(%A: memref<16xf32>, %B: memref<16xf32>) {
  %S = tir.alloc_buffer : memref<16xf32>
  tir.for %k = 0 to 4 unrolled annotations {note = "kept", software_pipeline_order = [1, 0], software_pipeline_stage = [0, 1]} {
    tir.for %x = 0 to 4 {
      tir.block "load"(%v = spatial(16, %k * 4 + %x)) {
        %0 = tir.load %A[%v] : memref<16xf32>
        tir.store %0, %S[%v] : memref<16xf32>
      }
    }
    tir.for %x = 0 to 4 {
      tir.block "use"(%v = spatial(16, %k * 4 + %x)) {
        %0 = tir.load %S[%v] : memref<16xf32>
        tir.store %0, %B[%v] : memref<16xf32>
      }
    }
  }
  return
}

// -----

// A buffer of one iteration (allocated in the loop's body) that the next
// iteration refills before this one has used it gets two copies,
// allocated before the pipeline; the steady loop is unrolled by two so
// that each access names its copy: iteration j uses copy j mod 2. Five
// iterations: load(0); two rounds of {load(odd), use(even), load(even),
// use(odd)}; use(4).
// CHECK-LABEL: func.func @two_copies
// CHECK:         %[[T0:.+]] = memref.alloca() : memref<4xf32>
// CHECK-NEXT:    %[[T1:.+]] = memref.alloca() : memref<4xf32>
// CHECK:         tir.block "load"
// CHECK:           tir.store %{{.+}}, %[[T0]]
// CHECK:         tir.for %[[Q:.+]] = 0 to 2 {
// CHECK:           %[[BASE:.+]] = arith.muli %[[Q]], %c2
// CHECK:           arith.addi %[[BASE]], %c1
// CHECK:           tir.block "load"
// CHECK:             tir.store %{{.+}}, %[[T1]]
// CHECK:           tir.block "use"(%{{.+}} = spatial(20, %[[BASE]] * 4
// CHECK:             tir.load %[[T0]]
// CHECK:           arith.addi %[[BASE]], %c2
// CHECK:           tir.block "load"
// CHECK:             tir.store %{{.+}}, %[[T0]]
// CHECK:           arith.addi %[[BASE]], %c1
// CHECK:           tir.block "use"
// CHECK:             tir.load %[[T1]]
// CHECK:         }
// CHECK:         %[[C4:.+]] = arith.constant 4 : index
// CHECK:         tir.block "use"(%{{.+}} = spatial(20, %[[C4]] * 4 + %{{.+}}))
// CHECK:           tir.load %[[T0]]
// CHECK-NOT:     tir.block
func.func @two_copies(%A: memref<20xf32>, %B: memref<20xf32>) {
  tir.for %k = 0 to 5 annotations {software_pipeline_order = [0, 1], software_pipeline_stage = [0, 1]} {
    %T = memref.alloca() : memref<4xf32>
    tir.for %x = 0 to 4 {
      tir.block "load"(%v = spatial(20, %k * 4 + %x), %w = spatial(4, %x)) {
        %0 = tir.load %A[%v] : memref<20xf32>
        tir.store %0, %T[%w] : memref<4xf32>
      }
    }
    tir.for %x = 0 to 4 {
      tir.block "use"(%v = spatial(20, %k * 4 + %x), %w = spatial(4, %x)) {
        %0 = tir.load %T[%w] : memref<4xf32>
        tir.store %0, %B[%v] : memref<20xf32>
      }
    }
  }
  return
}

// -----

// The same buffer used before the next iteration refills it (the use
// first in a step) needs one copy, and the loop is not unrolled.
// CHECK-LABEL: func.func @one_copy
// CHECK:         memref.alloca() : memref<4xf32>
// CHECK-NOT:     memref.alloca
// CHECK:         tir.for %{{.+}} = 1 to 5 {
func.func @one_copy(%A: memref<20xf32>, %B: memref<20xf32>) {
  tir.for %k = 0 to 5 annotations {software_pipeline_order = [1, 0], software_pipeline_stage = [0, 1]} {
    %T = memref.alloca() : memref<4xf32>
    tir.for %x = 0 to 4 {
      tir.block "load"(%v = spatial(20, %k * 4 + %x), %w = spatial(4, %x)) {
        %0 = tir.load %A[%v] : memref<20xf32>
        tir.store %0, %T[%w] : memref<4xf32>
      }
    }
    tir.for %x = 0 to 4 {
      tir.block "use"(%v = spatial(20, %k * 4 + %x), %w = spatial(4, %x)) {
        %0 = tir.load %T[%w] : memref<4xf32>
        tir.store %0, %B[%v] : memref<20xf32>
      }
    }
  }
  return
}

// -----

// Fewer iterations than stages: step 0 loads iteration 0, step 1 has
// nothing to run, step 2 uses it.
// CHECK-LABEL: func.func @short
// CHECK-NOT:     tir.for %{{.+}} = 0 to 1
// CHECK:         tir.block "load"
// CHECK:         tir.block "use"
// CHECK-NOT:     tir.block
func.func @short(%A: memref<4xf32>, %B: memref<4xf32>) {
  tir.for %k = 0 to 1 annotations {software_pipeline_order = [0, 1], software_pipeline_stage = [0, 2]} {
    tir.for %x = 0 to 4 {
      tir.block "load"(%v = spatial(4, %k * 4 + %x)) {
        %0 = tir.load %A[%v] : memref<4xf32>
        tir.store %0, %B[%v] : memref<4xf32>
      }
    }
    tir.for %x = 0 to 4 {
      tir.block "use"(%v = spatial(4, %k * 4 + %x)) {
        %0 = tir.load %B[%v] : memref<4xf32>
        %1 = arith.addf %0, %0 : f32
        tir.store %1, %B[%v] : memref<4xf32>
      }
    }
  }
  return
}

// -----

// An accumulator every iteration updates stays in one stage: its parts
// overlap between iterations, which the same stage keeps in order.
// CHECK-LABEL: func.func @accumulate
// CHECK:         tir.block "load"
// CHECK:         tir.for %{{.+}} = 1 to 8 {
// CHECK:           tir.block "load"
// CHECK:           tir.block "sum"
// CHECK:         tir.block "sum"
func.func @accumulate(%A: memref<32xf32>, %acc: memref<1xf32>) {
  %S = tir.alloc_buffer : memref<32xf32>
  tir.for %k = 0 to 8 annotations {software_pipeline_order = [0, 1], software_pipeline_stage = [0, 1]} {
    tir.for %x = 0 to 4 {
      tir.block "load"(%v = spatial(32, %k * 4 + %x)) {
        %0 = tir.load %A[%v] : memref<32xf32>
        tir.store %0, %S[%v] : memref<32xf32>
      }
    }
    tir.for %x = 0 to 4 {
      tir.block "sum"(%v = reduce(32, %k * 4 + %x)) {
        %c0 = arith.constant 0 : index
        %0 = tir.load %S[%v] : memref<32xf32>
        %1 = tir.load %acc[%c0] : memref<1xf32>
        %2 = arith.addf %0, %1 : f32
        tir.store %2, %acc[%c0] : memref<1xf32>
      }
    }
  }
  return
}

// -----

// TVM's double_buffer_scope on the block writing a buffer of the
// iteration: two copies although the use comes first in a step.
// CHECK-LABEL: func.func @double_buffer_scope
// CHECK:         memref.alloca() : memref<4xf32>
// CHECK-NEXT:    memref.alloca() : memref<4xf32>
// CHECK:         tir.for %{{.+}} = 0 to 2 {
func.func @double_buffer_scope(%A: memref<20xf32>, %B: memref<20xf32>) {
  tir.for %k = 0 to 5 annotations {software_pipeline_order = [1, 0], software_pipeline_stage = [0, 1]} {
    %T = memref.alloca() : memref<4xf32>
    tir.for %x = 0 to 4 {
      tir.block "load"(%v = spatial(20, %k * 4 + %x), %w = spatial(4, %x)) annotations {double_buffer_scope = 0 : i64} {
        %0 = tir.load %A[%v] : memref<20xf32>
        tir.store %0, %T[%w] : memref<4xf32>
      }
    }
    tir.for %x = 0 to 4 {
      tir.block "use"(%v = spatial(20, %k * 4 + %x), %w = spatial(4, %x)) {
        %0 = tir.load %T[%w] : memref<4xf32>
        tir.store %0, %B[%v] : memref<20xf32>
      }
    }
  }
  return
}
