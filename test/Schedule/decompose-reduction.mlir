// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// decompose_reduction at the outermost loop: the init block gets copies of
// both spatial loops before the nest; the block becomes "C_update", with
// no init. Both list their regions as TVM's do: the block's inferred reads
// left out C (it has an init); the update block reads C first.
// CHECK-LABEL: func.func @outermost
// CHECK:         tir.for %[[I:.+]] = 0 to 16 {
// CHECK-NEXT:      tir.for %[[J:.+]] = 0 to 8 {
// CHECK-NEXT:        tir.block "C_init"(%[[VI:.+]] = spatial(16, %[[I]]), %[[VJ:.+]] = spatial(8, %[[J]]))
// CHECK-SAME:            reads() writes(%[[C:.+]][%[[VI]], %[[VJ]]] : memref<16x8xf32>) {
// CHECK-NEXT:          %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:          tir.store %[[ZERO]], %{{.+}}[%[[VI]], %[[VJ]]] : memref<16x8xf32>
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    tir.for %[[I2:.+]] = 0 to 16 {
// CHECK-NEXT:      tir.for %[[J2:.+]] = 0 to 8 {
// CHECK-NEXT:        tir.for %[[K2:.+]] = 0 to 4 {
// CHECK-NEXT:          tir.block "C_update"(%[[UI:.+]] = spatial(16, %[[I2]]), %[[UJ:.+]] = spatial(8, %[[J2]]), %{{.+}} = reduce(4, %[[K2]]))
// CHECK-SAME:              reads(%[[C]][%[[UI]], %[[UJ]]], %{{.+}}, %{{.+}} : memref<16x8xf32>, memref<16x4xf32>, memref<4x8xf32>)
// CHECK-SAME:              writes(%[[C]][%[[UI]], %[[UJ]]] : memref<16x8xf32>) {
// CHECK-NOT:             tir.init
// CHECK:                 tir.load
func.func @outermost(%A: memref<16x4xf32>, %B: memref<4x8xf32>, %C: memref<16x8xf32>) {
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 8 {
      tir.for %k = 0 to 4 {
        tir.block "C"(%vi = spatial(16, %i), %vj = spatial(8, %j), %vk = reduce(4, %k)) {
          tir.init {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %C[%vi, %vj] : memref<16x8xf32>
          }
          %c = tir.load %C[%vi, %vj] : memref<16x8xf32>
          %a = tir.load %A[%vi, %vk] : memref<16x4xf32>
          %b = tir.load %B[%vk, %vj] : memref<4x8xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          tir.store %s, %C[%vi, %vj] : memref<16x8xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tir.get_loops %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %init = transform.tir.decompose_reduction %c at %i : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// At the reduction loop itself: the init goes into the spatial loops,
// right before the reduction loop, and needs no loop of its own. The
// block's regions: the init writes what the block writes and reads nothing,
// the update block reads what it writes first.
// CHECK-LABEL: func.func @innermost
// CHECK:         tir.for %[[I:.+]] = 0 to 16 {
// CHECK-NEXT:      tir.block "S_init"(%[[VI:.+]] = spatial(16, %[[I]]))
// CHECK-SAME:          reads()
// CHECK-SAME:          writes(%{{.+}}[%[[VI]]] : memref<16xf32>) {
// CHECK:           }
// CHECK-NEXT:      tir.for %[[K:.+]] = 0 to 4 {
// CHECK-NEXT:        tir.block "S_update"(%[[VI2:.+]] = spatial(16, %[[I]]), %[[VK:.+]] = reduce(4, %[[K]]))
// CHECK-SAME:            reads(%[[S:.+]][%[[VI2]]], %{{.+}}[%[[VI2]], %[[VK]]] : memref<16xf32>, memref<16x4xf32>)
// CHECK-SAME:            writes(%[[S]][%[[VI2]]] : memref<16xf32>) {
func.func @innermost(%A: memref<16x4xf32>, %S: memref<16xf32>) {
  tir.for %i = 0 to 16 {
    tir.for %k = 0 to 4 {
      tir.block "S"(%vi = spatial(16, %i), %vk = reduce(4, %k))
          reads(%A[%vi, %vk] : memref<16x4xf32>) writes(%S[%vi] : memref<16xf32>) {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %S[%vi] : memref<16xf32>
        }
        %s = tir.load %S[%vi] : memref<16xf32>
        %a = tir.load %A[%vi, %vk] : memref<16x4xf32>
        %t = arith.addf %s, %a : f32
        tir.store %t, %S[%vi] : memref<16xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %init = transform.tir.decompose_reduction %s at %k : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// After split i = 2 x 8 and k = 3 x 3 (not dividing 8): at i_1 the init
// stays under i_0, gets a copy of i_1 and j, and drops the predicate over
// the reduction loops it leaves out.
// CHECK-LABEL: func.func @split
// CHECK:         tir.for %[[I0:.+]] = 0 to 2 {
// CHECK-NEXT:      tir.for %[[I1:.+]] = 0 to 8 {
// CHECK-NEXT:        tir.for %[[J:.+]] = 0 to 8 {
// CHECK-NEXT:          tir.block "C_init"(%{{.+}} = spatial(16, %[[I0]] * 8 + %[[I1]]), %{{.+}} = spatial(8, %[[J]])) reads() writes({{.+}}) {
// CHECK:           tir.for %{{.+}} = 0 to 8 {
// CHECK-NEXT:        tir.for %{{.+}} = 0 to 8 {
// CHECK-NEXT:          tir.for %{{.+}} = 0 to 3 {
// CHECK-NEXT:            tir.for %{{.+}} = 0 to 3 {
// CHECK-NEXT:              tir.block "C_update"({{.+}}) where({{.+}} < 8) reads({{.+}}) writes({{.+}}) {
func.func @split(%A: memref<16x8xf32>, %B: memref<8x8xf32>, %C: memref<16x8xf32>) {
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 8 {
      tir.for %k = 0 to 8 {
        tir.block "C"(%vi = spatial(16, %i), %vj = spatial(8, %j), %vk = reduce(8, %k)) {
          tir.init {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %C[%vi, %vj] : memref<16x8xf32>
          }
          %c = tir.load %C[%vi, %vj] : memref<16x8xf32>
          %a = tir.load %A[%vi, %vk] : memref<16x8xf32>
          %b = tir.load %B[%vk, %vj] : memref<8x8xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          tir.store %s, %C[%vi, %vj] : memref<16x8xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tir.get_loops %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %i0, %i1 = transform.tir.split %i [2, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %k0, %k1 = transform.tir.split %k [3, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %init = transform.tir.decompose_reduction %c at %i1 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A spatial split that does not divide (10 = 3 x 4): the init keeps the
// predicate over the loops it copies. Loop kinds, thread bindings and
// annotations are copied too; the init block keeps the block's annotations.
// CHECK-LABEL: func.func @kinds
// CHECK:         tir.for %[[T:.+]] = 0 to 3 thread_binding<"threadIdx.x"> {
// CHECK-NEXT:      tir.for %[[V:.+]] = 0 to 4 vectorized annotations {pragma = 1 : i64} {
// CHECK-NEXT:        tir.block "R_init"(%{{.+}} = spatial(10, %[[T]] * 4 + %[[V]])) where(%[[T]] * 4 + %[[V]] < 10) reads() writes({{.+}}) annotations {note = "x"} {
// CHECK:         tir.for %{{.+}} = 0 to 3 thread_binding<"threadIdx.x"> {
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 4 vectorized annotations {pragma = 1 : i64} {
// CHECK-NEXT:        tir.for %{{.+}} = 0 to 6 {
// CHECK-NEXT:          tir.block "R_update"
func.func @kinds(%A: memref<10x6xf32>, %R: memref<10xf32>) {
  tir.for %t = 0 to 3 thread_binding<"threadIdx.x"> {
    tir.for %v = 0 to 4 vectorized annotations {pragma = 1 : i64} {
      tir.for %k = 0 to 6 {
        tir.block "R"(%vi = spatial(10, %t * 4 + %v), %vk = reduce(6, %k)) where(%t * 4 + %v < 10) annotations {note = "x"} {
          tir.init {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %R[%vi] : memref<10xf32>
          }
          %r = tir.load %R[%vi] : memref<10xf32>
          %a = tir.load %A[%vi, %vk] : memref<10x6xf32>
          %s = arith.addf %r, %a : f32
          tir.store %s, %R[%vi] : memref<10xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.tir.get_block "R" in %root : (!transform.any_op) -> !transform.any_op
    %t, %v, %k = transform.tir.get_loops %r : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %init = transform.tir.decompose_reduction %r at %t : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A blockized reduction: its init holds a loop and a block, copied into
// the init block (the nested block keeps its name).
// CHECK-LABEL: func.func @blockized
// CHECK:         tir.for %[[I:.+]] = 0 to 4 {
// CHECK-NEXT:      tir.block "outer_init"(%[[VI:.+]] = spatial(4, %[[I]])) reads() writes(%{{.+}}[%[[VI]], 0 : 2] : memref<4x2xf32>) {
// CHECK-NEXT:        tir.for %[[JJ:.+]] = 0 to 2 {
// CHECK-NEXT:          tir.block "inner_init"(%{{.+}} = spatial(2, %[[JJ]])) {
// CHECK:         tir.for %{{.+}} = 0 to 4 {
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 3 {
// CHECK-NEXT:        tir.block "outer_update"
// CHECK-NOT:           tir.init
// CHECK:               tir.block "inner"
func.func @blockized(%A: memref<4x2x3xf32>, %B: memref<4x2xf32>) {
  tir.for %i = 0 to 4 {
    tir.for %k = 0 to 3 {
      tir.block "outer"(%vi = spatial(4, %i), %vk = reduce(3, %k)) {
        tir.init {
          tir.for %jj = 0 to 2 {
            tir.block "inner_init"(%vj = spatial(2, %jj)) {
              %zero = arith.constant 0.0 : f32
              tir.store %zero, %B[%vi, %vj] : memref<4x2xf32>
            }
          }
        }
        tir.for %j = 0 to 2 {
          tir.block "inner"(%vj = spatial(2, %j)) {
            %b = tir.load %B[%vi, %vj] : memref<4x2xf32>
            %a = tir.load %A[%vi, %vj, %vk] : memref<4x2x3xf32>
            %s = arith.addf %b, %a : f32
            tir.store %s, %B[%vi, %vj] : memref<4x2xf32>
          }
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %o = transform.tir.get_block "outer" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tir.get_loops %o : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %init = transform.tir.decompose_reduction %o at %i : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A block after the reduction under the loop reads, in each iteration, the
// row the reduction finished there (cache_write's write-back after
// reverse_compute_at): allowed, the init goes before the loop.
// CHECK-LABEL: func.func @later_reader
// CHECK:         tir.for %[[I:.+]] = 0 to 8 {
// CHECK-NEXT:      tir.block "L_init"
// CHECK:         tir.for %{{.+}} = 0 to 8 {
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 4 {
// CHECK-NEXT:        tir.block "L_update"
// CHECK:           tir.block "W"
func.func @later_reader(%A: memref<8x4xf32>, %O: memref<8xf32>) {
  %L = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 4 {
      tir.block "L"(%vi = spatial(8, %i), %vk = reduce(4, %k)) {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %L[%vi] : memref<8xf32>
        }
        %l = tir.load %L[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xf32>
        %s = arith.addf %l, %a : f32
        tir.store %s, %L[%vi] : memref<8xf32>
      }
    }
    tir.block "W"(%vi = spatial(8, %i)) {
      %l = tir.load %L[%vi] : memref<8xf32>
      tir.store %l, %O[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.tir.get_block "L" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tir.get_loops %l : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %init = transform.tir.decompose_reduction %l at %i : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}
