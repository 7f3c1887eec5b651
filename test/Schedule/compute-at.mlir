// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// compute_at of a producer at the outer loop of a consumer split 10 = 3 x 4
// (not dividing): 4 rows per iteration, the whole row width, and the
// predicate that keeps the last iteration inside the buffer.
// CHECK-LABEL: func.func @pipe
// CHECK:         tir.for %[[I0:.+]] = 0 to 3 {
// CHECK-NEXT:      tir.for %[[AX0:.+]] = 0 to 4 {
// CHECK-NEXT:        tir.for %[[AX1:.+]] = 0 to 8 {
// CHECK-NEXT:          tir.block "B"(%{{.+}} = spatial(10, %[[I0]] * 4 + %[[AX0]]), %{{.+}} = spatial(8, %[[AX1]])) where(%[[I0]] * 4 + %[[AX0]] < 10) {
// CHECK:             tir.for %{{.+}} = 0 to 4 {
// CHECK-NEXT:          tir.for %{{.+}} = 0 to 8 {
// CHECK-NEXT:            tir.block "C"
// CHECK-NOT:     tir.for
// CHECK:         return
func.func @pipe(%A: memref<10x8xf32>, %C: memref<10x8xf32>) {
  %B = tir.alloc_buffer : memref<10x8xf32>
  tir.for %i = 0 to 10 {
    tir.for %j = 0 to 8 {
      tir.block "B"(%vi = spatial(10, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<10x8xf32>
        %two = arith.constant 2.0 : f32
        %m = arith.mulf %a, %two : f32
        tir.store %m, %B[%vi, %vj] : memref<10x8xf32>
      }
    }
  }
  tir.for %i = 0 to 10 {
    tir.for %j = 0 to 8 {
      tir.block "C"(%vi = spatial(10, %i), %vj = spatial(8, %j)) {
        %b = tir.load %B[%vi, %vj] : memref<10x8xf32>
        %one = arith.constant 1.0 : f32
        %s = arith.addf %b, %one : f32
        tir.store %s, %C[%vi, %vj] : memref<10x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %i0, %i1 = transform.tir.split %i [?, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.compute_at %b at %i0 : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// reverse_compute_at of a consumer at the outer loop of its producer split
// 8 = 4 x 2: the consumer covers the two elements of each iteration.
// CHECK-LABEL: func.func @rev
// CHECK:         tir.for %[[I0:.+]] = 0 to 4 {
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 2 {
// CHECK-NEXT:        tir.block "B"
// CHECK:           tir.for %[[AX0:.+]] = 0 to 2 {
// CHECK-NEXT:        tir.block "C"(%{{.+}} = spatial(8, %[[I0]] * 2 + %[[AX0]])) {
// CHECK-NOT:     tir.for
// CHECK:         return
func.func @rev(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %i = 0 to 8 {
    tir.block "C"(%vi = spatial(8, %i)) {
      %b = tir.load %B[%vi] : memref<8xf32>
      tir.store %b, %C[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %i0, %i1 = transform.tir.split %i [?, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.reverse_compute_at %c at %i0 : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// A shared-memory producer computed at a threadIdx loop covers what every
// thread of the block needs (the loop and the threadIdx / vthread loops
// around it are relaxed, not blockIdx): 2 x 4 threads read a 16-wide slice
// of the blockIdx.x tile. A local buffer would cover one thread's 2.
// CHECK-LABEL: func.func @shared_tile
// CHECK:         tir.for %[[BX:.+]] = 0 to 4 thread_binding<"blockIdx.x"> {
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 2 thread_binding<"vthread.x"> {
// CHECK-NEXT:        tir.for %{{.+}} = 0 to 4 thread_binding<"threadIdx.x"> {
// CHECK-NEXT:          tir.for %[[AX0:.+]] = 0 to 16 {
// CHECK-NEXT:            tir.block "S"(%{{.+}} = spatial(64, %[[BX]] * 16 + %[[AX0]])) {
// CHECK:               tir.for %{{.+}} = 0 to 2 {
// CHECK-NEXT:            tir.block "L"(%{{.+}} = spatial(64, %[[BX]] * 16 + %{{.+}} * 8 + %{{.+}} * 2 + %{{.+}}))
// CHECK:               tir.for %{{.+}} = 0 to 2 {
// CHECK-NEXT:            tir.block "C"
func.func @shared_tile(%A: memref<64xf32>, %C: memref<64xf32>) {
  %S = tir.alloc_buffer : memref<64xf32, "shared">
  %L = tir.alloc_buffer : memref<64xf32, "local">
  tir.for %i = 0 to 64 {
    tir.block "S"(%vi = spatial(64, %i)) {
      %a = tir.load %A[%vi] : memref<64xf32>
      tir.store %a, %S[%vi] : memref<64xf32, "shared">
    }
  }
  tir.for %i = 0 to 64 {
    tir.block "L"(%vi = spatial(64, %i)) {
      %s = tir.load %S[%vi] : memref<64xf32, "shared">
      tir.store %s, %L[%vi] : memref<64xf32, "local">
    }
  }
  tir.for %bx = 0 to 4 thread_binding<"blockIdx.x"> {
    tir.for %vx = 0 to 2 thread_binding<"vthread.x"> {
      tir.for %tx = 0 to 4 thread_binding<"threadIdx.x"> {
        tir.for %j = 0 to 2 {
          tir.block "C"(%vi = spatial(64, %bx * 16 + %vx * 8 + %tx * 2 + %j)) {
            %l = tir.load %L[%vi] : memref<64xf32, "local">
            tir.store %l, %C[%vi] : memref<64xf32>
          }
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.tir.get_block "L" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %bx, %vx, %tx, %j = transform.tir.get_loops %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.tir.compute_at %l at %tx : !transform.any_op, !transform.any_op
    transform.tir.compute_at %s at %tx : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// A producer that writes its output reversed (Y[7 - vi]) is inverted: one
// iteration of i needs Y[i], written by vi = 7 - i.
// CHECK-LABEL: func.func @reversed
// CHECK:         tir.for %[[I:.+]] = 0 to 8 {
// CHECK-NEXT:      tir.block "Y"(%{{.+}} = spatial(8, -%[[I]] + 7)) {
// CHECK:           tir.block "Z"
func.func @reversed(%X: memref<8xf32>, %Z: memref<8xf32>) {
  %Y = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "Y"(%vi = spatial(8, %i)) {
      %x = tir.load %X[%vi] : memref<8xf32>
      tir.store %x, %Y[7 - %vi] : memref<8xf32>
    }
  }
  tir.for %i = 0 to 8 {
    tir.block "Z"(%vi = spatial(8, %i)) {
      %y = tir.load %Y[%vi] : memref<8xf32>
      tir.store %y, %Z[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %y = transform.tir.get_block "Y" in %root : (!transform.any_op) -> !transform.any_op
    %z = transform.tir.get_block "Z" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %z : (!transform.any_op) -> !transform.any_op
    transform.tir.compute_at %y at %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// A producer that writes tiles of 4 (B[vo * 4 : vo * 4 + 4]) computed at a
// consumer loop that reads 8 elements per iteration: two tiles each.
// CHECK-LABEL: func.func @tiles
// CHECK:         tir.for %[[IO:.+]] = 0 to 2 {
// CHECK-NEXT:      tir.for %[[AX0:.+]] = 0 to 2 {
// CHECK-NEXT:        tir.block "B"(%{{.+}} = spatial(4, %[[IO]] * 2 + %[[AX0]]))
// CHECK:           tir.for %{{.+}} = 0 to 8 {
// CHECK-NEXT:        tir.block "C"
func.func @tiles(%A: memref<16xf32>, %C: memref<16xf32>) {
  %B = tir.alloc_buffer : memref<16xf32>
  tir.for %o = 0 to 4 {
    tir.block "B"(%vo = spatial(4, %o)) writes(%B[%vo * 4 : %vo * 4 + 4] : memref<16xf32>) {
      tir.for %k = 0 to 4 {
        tir.block "b"(%v = spatial(16, %vo * 4 + %k)) {
          %a = tir.load %A[%v] : memref<16xf32>
          tir.store %a, %B[%v] : memref<16xf32>
        }
      }
    }
  }
  tir.for %io = 0 to 2 {
    tir.for %ii = 0 to 8 {
      tir.block "C"(%vi = spatial(16, %io * 8 + %ii)) {
        %b = tir.load %B[%vi] : memref<16xf32>
        tir.store %b, %C[%vi] : memref<16xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %io, %ii = transform.tir.get_loops %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.compute_at %b at %io : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// A consumer reads a 45-element table at c floordiv 16 over two groups of
// 360 channels; a group needs entries (360 * g) floordiv 16 to
// (360 * g + 359) floordiv 16: 23 of them, from 22 * g (the floordiv of
// 45 * g by 2 is 22 * g for g in [0, 1]). Both groups compute entry 22.
// CHECK-LABEL: func.func @channel_groups
// CHECK:         tir.for %[[G:.+]] = 0 to 2 {
// CHECK-NEXT:      tir.for %[[AX0:.+]] = 0 to 23 {
// CHECK-NEXT:        tir.block "init"(%{{.+}} = spatial(45, %[[G]] * 22 + %[[AX0]]))
// CHECK:           tir.for %{{.+}} = 0 to 360 {
// CHECK-NEXT:        tir.block "compute"
func.func @channel_groups(%X: memref<720xf32>, %Y: memref<720xf32>) {
  %B = tir.alloc_buffer : memref<45xf32>
  tir.for %i = 0 to 45 {
    tir.block "init"(%vi = spatial(45, %i)) {
      %x = tir.load %X[%vi] : memref<720xf32>
      tir.store %x, %B[%vi] : memref<45xf32>
    }
  }
  tir.for %g = 0 to 2 {
    tir.for %c = 0 to 360 {
      tir.block "compute"(%vc = spatial(720, %g * 360 + %c)) {
        %b = tir.load %B[%vc floordiv 16] : memref<45xf32>
        tir.store %b, %Y[%vc] : memref<720xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "init" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.get_block "compute" in %root : (!transform.any_op) -> !transform.any_op
    %g, %ci = transform.tir.get_loops %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.compute_at %b at %g : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// reverse_compute_at of a consumer that reads the 16 x 16 producer as one
// flat index (temp[v floordiv 16, v mod 16]): under producer loop i the
// producers write row i, the values 16 * i to 16 * i + 15 of v.
// CHECK-LABEL: func.func @digits_reverse
// CHECK:         tir.for %[[I:.+]] = 0 to 16 {
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 16 {
// CHECK-NEXT:        tir.block "A"
// CHECK:           tir.for %[[AX0:.+]] = 0 to 16 {
// CHECK-NEXT:        tir.block "B"(%{{.+}} = spatial(256, %[[I]] * 16 + %[[AX0]]))
// CHECK-NOT:     tir.for
func.func @digits_reverse(%X: memref<16x16xf32>, %Y: memref<256xf32>) {
  %temp = tir.alloc_buffer : memref<16x16xf32>
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 16 {
      tir.block "A"(%vi = spatial(16, %i), %vj = spatial(16, %j)) {
        %x = tir.load %X[%vj, %vi] : memref<16x16xf32>
        tir.store %x, %temp[%vi, %vj] : memref<16x16xf32>
      }
    }
  }
  tir.for %k = 0 to 256 {
    tir.block "B"(%v = spatial(256, %k)) {
      %t = tir.load %temp[%v floordiv 16, %v mod 16] : memref<16x16xf32>
      tir.store %t, %Y[%v] : memref<256xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.tir.get_block "A" in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %a : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.reverse_compute_at %b at %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// Three digits of one variable (v floordiv 4, (v mod 4) floordiv 2,
// v mod 2): under producer loop a the producers write temp[a, :, :], the
// values 4 * a to 4 * a + 3 of v.
// CHECK-LABEL: func.func @digits_mixed_radix
// CHECK:         tir.for %[[A:.+]] = 0 to 4 {
// CHECK:           tir.for %[[AX0:.+]] = 0 to 4 {
// CHECK-NEXT:        tir.block "B"(%{{.+}} = spatial(16, %[[A]] * 4 + %[[AX0]]))
func.func @digits_mixed_radix(%X: memref<4x2x2xf32>, %Y: memref<16xf32>) {
  %temp = tir.alloc_buffer : memref<4x2x2xf32>
  tir.for %a = 0 to 4 {
    tir.for %b = 0 to 2 {
      tir.for %c = 0 to 2 {
        tir.block "A"(%va = spatial(4, %a), %vb = spatial(2, %b), %vc = spatial(2, %c)) {
          %x = tir.load %X[%va, %vb, %vc] : memref<4x2x2xf32>
          tir.store %x, %temp[%va, %vb, %vc] : memref<4x2x2xf32>
        }
      }
    }
  }
  tir.for %k = 0 to 16 {
    tir.block "B"(%v = spatial(16, %k)) {
      %t = tir.load %temp[%v floordiv 4, (%v mod 4) floordiv 2, %v mod 2] : memref<4x2x2xf32>
      tir.store %t, %Y[%v] : memref<16xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.tir.get_block "A" in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %la, %lb, %lc = transform.tir.get_loops %a : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.tir.reverse_compute_at %b at %la : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// compute_at of a producer that writes the 16 x 16 buffer through one flat
// variable: row i of the consumer needs the values 16 * i to 16 * i + 15.
// CHECK-LABEL: func.func @digits_compute_at
// CHECK:         tir.for %[[I:.+]] = 0 to 16 {
// CHECK-NEXT:      tir.for %[[AX0:.+]] = 0 to 16 {
// CHECK-NEXT:        tir.block "A"(%{{.+}} = spatial(256, %[[I]] * 16 + %[[AX0]]))
// CHECK:           tir.for %{{.+}} = 0 to 16 {
// CHECK-NEXT:        tir.block "B"
func.func @digits_compute_at(%X: memref<256xf32>, %Y: memref<16x16xf32>) {
  %temp = tir.alloc_buffer : memref<16x16xf32>
  tir.for %k = 0 to 256 {
    tir.block "A"(%v = spatial(256, %k)) {
      %x = tir.load %X[%v] : memref<256xf32>
      tir.store %x, %temp[%v floordiv 16, %v mod 16] : memref<16x16xf32>
    }
  }
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 16 {
      tir.block "B"(%vi = spatial(16, %i), %vj = spatial(16, %j)) {
        %t = tir.load %temp[%vi, %vj] : memref<16x16xf32>
        tir.store %t, %Y[%vi, %vj] : memref<16x16xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %a = transform.tir.get_block "A" in %root : (!transform.any_op) -> !transform.any_op
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.compute_at %a at %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// Runtime domains: under the outer loop of a consumer split by 4, the
// producer covers 4 rows of its runtime domain (guarded where 4 does not
// divide %n) and the whole runtime row length %m.
// CHECK-LABEL: func.func @runtime_domains
// CHECK:         tir.for %[[IO:.+]] = 0 to
// CHECK-NEXT:      tir.for %[[AX0:.+]] = 0 to 4 {
// CHECK-NEXT:        tir.for %[[AX1:.+]] = 0 to %[[M:.+]] {
// CHECK-NEXT:          tir.block "B"(%{{.+}} = spatial(%[[N:.+]], %[[IO]] * 4 + %[[AX0]]), %{{.+}} = spatial(%[[M]], %[[AX1]]))
// CHECK-SAME:            where
// CHECK:           tir.for %{{.+}} = 0 to 4 {
// CHECK-NEXT:        tir.for %{{.+}} = 0 to %[[M]] {
// CHECK-NEXT:          tir.block "C"
func.func @runtime_domains(%A: memref<?x?xf32>, %C: memref<?x?xf32>, %n: index, %m: index) {
  %B = tir.alloc_buffer(%n, %m) : memref<?x?xf32>
  tir.for %i = 0 to %n {
    tir.for %j = 0 to %m {
      tir.block "B"(%vi = spatial(%n, %i), %vj = spatial(%m, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<?x?xf32>
        tir.store %a, %B[%vi, %vj] : memref<?x?xf32>
      }
    }
  }
  tir.for %i = 0 to %n {
    tir.for %j = 0 to %m {
      tir.block "C"(%vi = spatial(%n, %i), %vj = spatial(%m, %j)) {
        %b = tir.load %B[%vi, %vj] : memref<?x?xf32>
        tir.store %b, %C[%vi, %vj] : memref<?x?xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %io, %ii = transform.tir.split %i [?, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.compute_at %b at %io : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// A layout change from 16-wide to 8-wide channel blocks reads its
// producer at digits of a fused source, 8 * v1 + v4 (v4 in [0, 8)): under
// the producer's block loop i1 the producers write one 16-wide block, the
// values 16 * i1 to 16 * i1 + 15 of the source: two values of v1, all of v4.
// CHECK-LABEL: func.func @fused_digits
// CHECK:         tir.for %[[I1:.+]] = 0 to 3 {
// CHECK:           tir.for %[[AX0:.+]] = 0 to 2 {
// CHECK-NEXT:        tir.for %[[AX1:.+]] = 0 to 8 {
// CHECK-NEXT:          tir.block "T"(%{{.+}} = spatial(6, %[[I1]] * 2 + %[[AX0]]), %{{.+}} = spatial(8, %[[AX1]]))
func.func @fused_digits(%A: memref<3x16xf32>, %C: memref<6x8xf32>) {
  %B = tir.alloc_buffer : memref<3x16xf32>
  tir.for %i1 = 0 to 3 {
    tir.for %i4 = 0 to 16 {
      tir.block "B"(%v1 = spatial(3, %i1), %v4 = spatial(16, %i4)) {
        %a = tir.load %A[%v1, %v4] : memref<3x16xf32>
        tir.store %a, %B[%v1, %v4] : memref<3x16xf32>
      }
    }
  }
  tir.for %o1 = 0 to 6 {
    tir.for %o4 = 0 to 8 {
      tir.block "T"(%v1 = spatial(6, %o1), %v4 = spatial(8, %o4)) {
        %b = tir.load %B[(%v1 * 8 + %v4) floordiv 16, (%v1 * 8 + %v4) mod 16] : memref<3x16xf32>
        tir.store %b, %C[%v1, %v4] : memref<6x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %i1, %i4 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.reverse_compute_at %t at %i1 : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// reverse_compute_at over producers whose predicates only keep iteration
// variables in their domains (rows split 10 = 3 x 4) or bound the
// reduction (k of 10 split by 4): every iteration of i0 writes its rows
// whole (up to row 9), so the consumer follows with a predicate of its own.
// CHECK-LABEL: func.func @predicated_producer
// CHECK:         tir.for %[[I0:.+]] = 0 to 3 {
// CHECK:           tir.block "Y"
// CHECK:           tir.for %[[AX0:.+]] = 0 to 4 {
// CHECK-NEXT:        tir.block "D"(%{{.+}} = spatial(10, %[[I0]] * 4 + %[[AX0]])) where
func.func @predicated_producer(%A: memref<10x10xf32>, %D: memref<10xf32>) {
  %Y = tir.alloc_buffer : memref<10xf32>
  tir.for %i0 = 0 to 3 {
    tir.for %i1 = 0 to 4 {
      tir.for %k0 = 0 to 3 {
        tir.for %k1 = 0 to 4 {
          tir.block "Y"(%vi = spatial(10, %i0 * 4 + %i1), %vk = reduce(10, %k0 * 4 + %k1)) where (%i0 * 4 + %i1 < 10, %k0 * 4 + %k1 < 10) {
            tir.init {
              %z = arith.constant 0.0 : f32
              tir.store %z, %Y[%vi] : memref<10xf32>
            }
            %y = tir.load %Y[%vi] : memref<10xf32>
            %a = tir.load %A[%vi, %vk] : memref<10x10xf32>
            %s = arith.addf %y, %a : f32
            tir.store %s, %Y[%vi] : memref<10xf32>
          }
        }
      }
    }
  }
  tir.for %i = 0 to 10 {
    tir.block "D"(%vi = spatial(10, %i)) {
      %y = tir.load %Y[%vi] : memref<10xf32>
      tir.store %y, %D[%vi] : memref<10xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %y = transform.tir.get_block "Y" in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.tir.get_block "D" in %root : (!transform.any_op) -> !transform.any_op
    %i0, %i1, %k0, %k1 = transform.tir.get_loops %y : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.tir.reverse_compute_at %d at %i0 : !transform.any_op, !transform.any_op
    transform.yield
  }
}
