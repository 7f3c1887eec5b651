// RUN: tir-opt %s --tir-partition-loops -split-input-file | FileCheck %s

// 100 elements in tiles of 32: three full tiles without the predicate,
// then a tail of 4 (the iterations past 100 erased).
// CHECK-LABEL: func.func @one_tail
// CHECK:         tir.for %[[O:.+]] = 0 to 3 {
// CHECK-NEXT:      tir.for %[[I:.+]] = 0 to 32 {
// CHECK-NEXT:        tir.block "B"(%{{.+}} = spatial(100, %[[O]] * 32 + %[[I]])) {
// CHECK:         tir.for %[[O2:.+]] = 3 to 4 {
// CHECK-NEXT:      tir.for %[[I2:.+]] = 0 to 4 {
// CHECK-NEXT:        tir.block "B"(%{{.+}} = spatial(100, %[[O2]] * 32 + %[[I2]])) {
// CHECK-NOT:     tir.for
func.func @one_tail(%a: memref<100xf32>, %b: memref<100xf32>) {
  tir.for %o = 0 to 4 {
    tir.for %i = 0 to 32 {
      tir.block "B"(%v = spatial(100, %o * 32 + %i)) where(%o * 32 + %i < 100) {
        %x = tir.load %a[%v] : memref<100xf32>
        tir.store %x, %b[%v] : memref<100xf32>
      }
    }
  }
  return
}

// -----

// A 2-D tiling of 10 x 7 by 4 x 4 with the accumulator's init above the
// reduction (a loop body of several statements): rows and columns are cut
// independently, the inner loops of each tail get its narrower range, and
// every copy of the nest that is left runs without a predicate.
// CHECK-LABEL: func.func @two_dims
// CHECK-NOT:     where
// CHECK:         tir.for %{{.+}} = 0 to 2 {
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 1 {
// CHECK:           tir.for %{{.+}} = 1 to 2 {
// CHECK-NEXT:        tir.for %{{.+}} = 0 to 4 {
// CHECK-NEXT:          tir.for %{{.+}} = 0 to 3 {
// CHECK:         tir.for %{{.+}} = 2 to 3 {
// CHECK-NOT:     where
// CHECK:         return
func.func @two_dims(%a: memref<10x5xf32>, %b: memref<5x7xf32>, %c: memref<10x7xf32>) {
  tir.for %io = 0 to 3 {
    tir.for %jo = 0 to 2 {
      tir.for %ii = 0 to 4 {
        tir.for %ji = 0 to 4 {
          tir.block "init"(%vi = spatial(10, %io * 4 + %ii), %vj = spatial(7, %jo * 4 + %ji)) where(%io * 4 + %ii < 10 and %jo * 4 + %ji < 7) {
            %z = arith.constant 0.0 : f32
            tir.store %z, %c[%vi, %vj] : memref<10x7xf32>
          }
        }
      }
      tir.for %k = 0 to 5 {
        tir.for %ii = 0 to 4 {
          tir.for %ji = 0 to 4 {
            tir.block "update"(%vi = spatial(10, %io * 4 + %ii), %vj = spatial(7, %jo * 4 + %ji), %vk = reduce(5, %k)) where(%io * 4 + %ii < 10 and %jo * 4 + %ji < 7) {
              %x = tir.load %c[%vi, %vj] : memref<10x7xf32>
              %y = tir.load %a[%vi, %vk] : memref<10x5xf32>
              %w = tir.load %b[%vk, %vj] : memref<5x7xf32>
              %m = arith.mulf %y, %w : f32
              %s = arith.addf %x, %m : f32
              tir.store %s, %c[%vi, %vj] : memref<10x7xf32>
            }
          }
        }
      }
    }
  }
  return
}

// -----

// The unrolled loop is cut, and the vectorized loop of the tail becomes 8
// lanes wide: no masked accesses are left.
// CHECK-LABEL: func.func @vector_tail
// CHECK:         tir.for %{{.+}} = 0 to 2 unrolled {
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 16 vectorized {
// CHECK-NEXT:        tir.block "B"(%{{.+}} = spatial(40, %{{.+}})) {
// CHECK:         tir.for %[[U:.+]] = 2 to 3 unrolled {
// CHECK-NEXT:      tir.for %[[L:.+]] = 0 to 8 vectorized {
// CHECK-NEXT:        tir.block "B"(%{{.+}} = spatial(40, %[[U]] * 16 + %[[L]])) {
func.func @vector_tail(%a: memref<40xf32>) {
  tir.for %u = 0 to 3 unrolled {
    tir.for %l = 0 to 16 vectorized {
      tir.block "B"(%v = spatial(40, %u * 16 + %l)) where(%u * 16 + %l < 40) {
        %z = arith.constant 0.0 : f32
        tir.store %z, %a[%v] : memref<40xf32>
      }
    }
  }
  return
}

// -----

// A lower bound (a padded window's first rows): the cut is where it starts
// to hold; the rows before it run no block and are erased.
// CHECK-LABEL: func.func @lower_bound
// CHECK:         tir.for %[[I:.+]] = 2 to 8 {
// CHECK-NEXT:      tir.block "P"(%{{.+}} = spatial(8, %[[I]])) {
// CHECK-NOT:     tir.for
func.func @lower_bound(%a: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "P"(%v = spatial(8, %i)) where(%i >= 2) {
      %z = arith.constant 0.0 : f32
      tir.store %z, %a[%v] : memref<8xf32>
    }
  }
  return
}

// -----

// Left as they are: a disjunction, and a loop annotated for software
// pipelining with everything in it (the annotation numbers its
// statements). A thread-bound loop keeps its extent; the loop inside it
// is cut.
// CHECK-LABEL: func.func @left_alone
// CHECK:         tir.for %{{.+}} = 0 to 4 {
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 8 {
// CHECK-NEXT:        where(%{{.+}} < 3 or %{{.+}} >= 30)
// CHECK:         tir.for %{{.+}} = 0 to 4 annotations
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 32 {
// CHECK-NEXT:        where(%{{.+}} < 100)
// CHECK:         tir.for %{{.+}} = 0 to 4 thread_binding<"threadIdx.x"> {
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 4 {
// CHECK-NEXT:        tir.block "T"(%{{.+}} = spatial(100, %{{.+}})) {
// CHECK:           tir.for %{{.+}} = 4 to 32 {
// CHECK-NEXT:        where(%{{.+}} < 100)
func.func @left_alone(%a: memref<100xf32>) {
  tir.for %o = 0 to 4 {
    tir.for %i = 0 to 8 {
      tir.block "D"(%v = spatial(100, %o * 8 + %i)) where(%o * 8 + %i < 3 or %o * 8 + %i > 29) {
        %z = arith.constant 0.0 : f32
        tir.store %z, %a[%v] : memref<100xf32>
      }
    }
  }
  tir.for %o = 0 to 4 annotations {software_pipeline_order = [0], software_pipeline_stage = [0]} {
    tir.for %i = 0 to 32 {
      tir.block "S"(%v = spatial(100, %o * 32 + %i)) where(%o * 32 + %i < 100) {
        %z = arith.constant 0.0 : f32
        tir.store %z, %a[%v] : memref<100xf32>
      }
    }
  }
  tir.for %o = 0 to 4 thread_binding<"threadIdx.x"> {
    tir.for %i = 0 to 32 {
      tir.block "T"(%v = spatial(100, %o * 32 + %i)) where(%o * 32 + %i < 100) {
        %z = arith.constant 0.0 : f32
        tir.store %z, %a[%v] : memref<100xf32>
      }
    }
  }
  return
}

// -----

// A reduction blocked by 4 over 8 with its init inside: the init runs only
// at k = 0, so the block-of-k loop is cut after its first iteration and, in
// that part, the loop inside after its first; the copies that can never
// start the reduction lose the init (no test of k in the hot loop), the
// first iteration keeps it.
// CHECK-LABEL: func.func @init_peeled
// CHECK:         tir.for %[[K0:.+]] = 0 to 1 {
// CHECK-NEXT:      tir.for %[[K1:.+]] = 0 to 1 {
// CHECK-NEXT:        tir.block "C"
// CHECK-NEXT:          tir.init {
// CHECK:           tir.for %[[K1B:.+]] = 1 to 4 {
// CHECK-NEXT:        tir.block "C"
// CHECK-NOT:           tir.init
// CHECK:         tir.for %{{.+}} = 1 to 2 {
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 4 {
// CHECK-NEXT:        tir.block "C"
// CHECK-NOT:           tir.init
// CHECK:         return
func.func @init_peeled(%a: memref<8xf32>, %c: memref<1xf32>) {
  tir.for %k0 = 0 to 2 {
    tir.for %k1 = 0 to 4 {
      tir.block "C"(%vk = reduce(8, %k0 * 4 + %k1)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          %c0 = arith.constant 0 : index
          tir.store %z, %c[%c0] : memref<1xf32>
        }
        %c0 = arith.constant 0 : index
        %x = tir.load %c[%c0] : memref<1xf32>
        %y = tir.load %a[%vk] : memref<8xf32>
        %s = arith.addf %x, %y : f32
        tir.store %s, %c[%c0] : memref<1xf32>
      }
    }
  }
  return
}

// -----

// A parallel loop's parts carry one group number, for
// --tir-merge-parallel-parts to make them one loop after the conversion.
// CHECK-LABEL: func.func @parallel_parts
// CHECK:         tir.for %{{.+}} = 0 to 3 parallel annotations {partition_group = 0 : i64} {
// CHECK:         tir.for %{{.+}} = 3 to 4 parallel annotations {partition_group = 0 : i64} {
func.func @parallel_parts(%a: memref<100xf32>, %b: memref<100xf32>) {
  tir.for %o = 0 to 4 parallel {
    tir.for %i = 0 to 32 {
      tir.block "B"(%v = spatial(100, %o * 32 + %i)) where(%o * 32 + %i < 100) {
        %x = tir.load %a[%v] : memref<100xf32>
        tir.store %x, %b[%v] : memref<100xf32>
      }
    }
  }
  return
}
