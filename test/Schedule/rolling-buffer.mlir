// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// A 3-wide sum over rows of B, B itself a 3-wide sum of A, computed per
// tile of 4 rows of C (compute_at's form): each tile needs 6 rows of B, 2
// of them the previous tile's. The ring keeps 6 rows, accesses go modulo
// 6, B skips the rows the previous tile left, and the row variables the
// tile loop feeds become opaque.
// CHECK-LABEL: func.func @ring
// CHECK:         %B = tir.alloc_buffer : memref<4x6xi32>
// CHECK:         tir.for %[[C:.+]] = 0 to 4 {
// CHECK-NEXT:      tir.for %[[I0:.+]] = 0 to 2 {
// CHECK-NEXT:        tir.for %[[AX0:.+]] = 0 to 6 {
// CHECK-NEXT:          tir.for %[[AX1:.+]] = 0 to 3 {
// CHECK-NEXT:            tir.block "B"(%[[CC:.+]] = spatial(4, %[[C]]), %[[VI:.+]] = opaque(10, %[[I0]] * 4 + %[[AX0]]), %[[VK:.+]] = reduce(3, %[[AX1]])) where(%[[I0]] < 1 or %[[AX0]] >= 2)
// CHECK:                 tir.store %{{.+}}, %B[%[[CC]], %[[VI]] mod 6]
// CHECK:                 tir.load %B[%[[CC]], %[[VI]] mod 6]
// CHECK:                 tir.store %{{.+}}, %B[%[[CC]], %[[VI]] mod 6]
// CHECK:          tir.for %[[I1:.+]] = 0 to 4 {
// CHECK-NEXT:       tir.for %[[K:.+]] = 0 to 3 {
// CHECK-NEXT:         tir.block "C"(%[[CC2:.+]] = spatial(4, %[[C]]), %[[VI2:.+]] = opaque(8, %[[I0]] * 4 + %[[I1]]), %[[VK2:.+]] = reduce(3, %[[K]]))
// CHECK:                tir.load %B[%[[CC2]], (%[[VI2]] + %[[VK2]]) mod 6]
func.func @ring(%A: memref<4x12xi32> {tir.name = "A"}, %C: memref<4x8xi32> {tir.name = "C"}) {
  %B = tir.alloc_buffer : memref<4x10xi32>
  tir.for %c = 0 to 4 {
    tir.for %i_0 = 0 to 2 {
      tir.for %ax0 = 0 to 6 {
        tir.for %ax1 = 0 to 3 {
          tir.block "B"(%cc = spatial(4, %c), %vi = spatial(10, %i_0 * 4 + %ax0), %vk = reduce(3, %ax1)) {
            tir.init {
              %z = arith.constant 0 : i32
              tir.store %z, %B[%cc, %vi] : memref<4x10xi32>
            }
            %b = tir.load %B[%cc, %vi] : memref<4x10xi32>
            %a = tir.load %A[%cc, %vi + %vk] : memref<4x12xi32>
            %s = arith.addi %b, %a : i32
            tir.store %s, %B[%cc, %vi] : memref<4x10xi32>
          }
        }
      }
      tir.for %i_1 = 0 to 4 {
        tir.for %k = 0 to 3 {
          tir.block "C"(%cc = spatial(4, %c), %vi = spatial(8, %i_0 * 4 + %i_1), %vk = reduce(3, %k)) {
            tir.init {
              %z = arith.constant 0 : i32
              tir.store %z, %C[%cc, %vi] : memref<4x8xi32>
            }
            %o = tir.load %C[%cc, %vi] : memref<4x8xi32>
            %b = tir.load %B[%cc, %vi + %vk] : memref<4x10xi32>
            %s = arith.addi %o, %b : i32
            tir.store %s, %C[%cc, %vi] : memref<4x8xi32>
          }
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.rolling_buffer %b {write_buffer_index = 0} : !transform.any_op
    transform.yield
  }
}

// -----

// Tiles of 4 in both dimensions of a 2-D stencil: both windows overlap;
// the first in loop order (rows) rolls, the columns keep their size, and
// the producer skips the overlap of both (two `or`s, conjoined).
// CHECK-LABEL: func.func @two_dims
// CHECK:         %B = tir.alloc_buffer : memref<6x10xf32>
// CHECK:         tir.block "B"(%{{.+}} = opaque(10, %[[I:.+]] * 4 + %[[X:[^)]+]]), %{{.+}} = spatial(10, %[[J:.+]] * 4 + %[[Y:[^)]+]])) where((%[[I]] < 1 and %[[J]] < 1) or (%[[I]] < 1 and %[[Y]] >= 2) or (%[[X]] >= 2 and %[[J]] < 1) or (%[[X]] >= 2 and %[[Y]] >= 2))
// CHECK:           tir.store %{{.+}}, %B[%{{.+}} mod 6, %{{.+}}]
// CHECK:         tir.block "C"(%{{.+}} = opaque(8,
// CHECK-SAME:      %{{.+}} = spatial(8,
// CHECK:           tir.load %B[(%{{.+}} + 2) mod 6, %{{.+}} + 2]
func.func @two_dims(%A: memref<10x10xf32> {tir.name = "A"}, %C: memref<8x8xf32> {tir.name = "C"}) {
  %B = tir.alloc_buffer : memref<10x10xf32>
  tir.for %i = 0 to 2 {
    tir.for %j = 0 to 2 {
      tir.for %x = 0 to 6 {
        tir.for %y = 0 to 6 {
          tir.block "B"(%vi = spatial(10, %i * 4 + %x), %vj = spatial(10, %j * 4 + %y)) {
            %a = tir.load %A[%vi, %vj] : memref<10x10xf32>
            %two = arith.constant 2.0 : f32
            %m = arith.mulf %a, %two : f32
            tir.store %m, %B[%vi, %vj] : memref<10x10xf32>
          }
        }
      }
      tir.for %x = 0 to 4 {
        tir.for %y = 0 to 4 {
          tir.block "C"(%vi = spatial(8, %i * 4 + %x), %vj = spatial(8, %j * 4 + %y)) {
            %b0 = tir.load %B[%vi, %vj] : memref<10x10xf32>
            %b1 = tir.load %B[%vi + 2, %vj + 2] : memref<10x10xf32>
            %s = arith.addf %b0, %b1 : f32
            tir.store %s, %C[%vi, %vj] : memref<8x8xf32>
          }
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.rolling_buffer %b {write_buffer_index = 0} : !transform.any_op
    transform.yield
  }
}

// -----

// The rolling loop feeds the consumer's reduce variable: it stays a reduce
// variable (an opaque one would run C's init at every r).
// CHECK-LABEL: func.func @over_reduction
// CHECK:         %B = tir.alloc_buffer : memref<4xf32>
// CHECK:         tir.block "B"(%{{.+}} = opaque(6, %[[R:.+]] + %[[X:[^)]+]])) where(%[[R]] < 1 or %[[X]] >= 3)
// CHECK:         tir.block "C"(%{{.+}} = spatial(4, %{{.+}}), %{{.+}} = reduce(3, %[[R]]))
func.func @over_reduction(%A: memref<6xf32> {tir.name = "A"}, %C: memref<4xf32> {tir.name = "C"}) {
  %B = tir.alloc_buffer : memref<6xf32>
  tir.for %r = 0 to 3 {
    tir.for %x = 0 to 4 {
      tir.block "B"(%vi = spatial(6, %r + %x)) {
        %a = tir.load %A[%vi] : memref<6xf32>
        tir.store %a, %B[%vi] : memref<6xf32>
      }
    }
    tir.for %h = 0 to 4 {
      tir.block "C"(%vh = spatial(4, %h), %vr = reduce(3, %r)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %C[%vh] : memref<4xf32>
        }
        %c = tir.load %C[%vh] : memref<4xf32>
        %b = tir.load %B[%vh + %vr] : memref<6xf32>
        %s = arith.addf %c, %b : f32
        tir.store %s, %C[%vh] : memref<4xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.rolling_buffer %b {write_buffer_index = 0} : !transform.any_op
    transform.yield
  }
}
