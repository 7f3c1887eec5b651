// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// An intermediate buffer packed into 16 x 16 tiles: the allocation takes
// the new shape and both blocks access it through the map.
// CHECK-LABEL: func.func @packed
// CHECK:         %B = tir.alloc_buffer : memref<2x2x16x16xf32>
// CHECK:         tir.block "B"(%[[VI:.+]] = spatial(32, %i), %[[VJ:.+]] = spatial(32, %j))
// CHECK:           tir.store %{{.+}}, %B[%[[VI]] floordiv 16, %[[VJ]] floordiv 16, %[[VI]] mod 16, %[[VJ]] mod 16]
// CHECK:         tir.block "C"(%[[WI:.+]] = spatial(32, %i), %[[WJ:.+]] = spatial(32, %j))
// CHECK-NEXT:      tir.load %B[%[[WI]] floordiv 16, %[[WJ]] floordiv 16, %[[WI]] mod 16, %[[WJ]] mod 16]
func.func @packed(%A: memref<32x32xf32> {tir.name = "A"}, %C: memref<32x32xf32> {tir.name = "C"}) {
  %B = tir.alloc_buffer : memref<32x32xf32>
  tir.for %i = 0 to 32 {
    tir.for %j = 0 to 32 {
      tir.block "B"(%vi = spatial(32, %i), %vj = spatial(32, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<32x32xf32>
        tir.store %a, %B[%vi, %vj] : memref<32x32xf32>
      }
    }
  }
  tir.for %i = 0 to 32 {
    tir.for %j = 0 to 32 {
      tir.block "C"(%vi = spatial(32, %i), %vj = spatial(32, %j)) {
        %b = tir.load %B[%vi, %vj] : memref<32x32xf32>
        tir.store %b, %C[%vi, %vj] : memref<32x32xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.transform_layout %b {buffer_index = 0, buffer_index_type = "write", index_map = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d0 mod 16, d1 mod 16)>} : !transform.any_op
    transform.yield
  }
}

// -----

// A parameter changes in the signature (TVM's buffer_map), which records
// the layout the user declared for builds (--tir-restore-declared-layouts);
// accesses are simplified with the domains (`(vo * 4 + vi) floordiv 4` is
// `vo`), a listed region is re-derived for the buffer only, and its axis
// separators are set.
// CHECK:       #[[MAP:.+]] = affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>
// CHECK-LABEL: func.func @param
// CHECK-SAME:    %arg0: memref<4x4xf32> {tir.axis_separators = array<i64: 1>, tir.declared_layout = {index_map = #[[MAP]], type = memref<16xf32>}, tir.name = "A"}
// CHECK:         tir.block "B"(%[[VO:.+]] = spatial(4, %o), %[[VI:.+]] = spatial(4, %i))
// CHECK-SAME:      reads(%arg0[%[[VO]], %[[VI]]] : memref<4x4xf32>) writes(%arg1[%[[VO]] * 4 + %[[VI]]] : memref<16xf32>)
// CHECK-NEXT:      tir.load %arg0[%[[VO]], %[[VI]]] : memref<4x4xf32>
func.func @param(%A: memref<16xf32> {tir.name = "A"}, %B: memref<16xf32> {tir.name = "B"}) {
  tir.for %o = 0 to 4 {
    tir.for %i = 0 to 4 {
      tir.block "B"(%vo = spatial(4, %o), %vi = spatial(4, %i))
          reads(%A[%vo * 4 + %vi] : memref<16xf32>) writes(%B[%vo * 4 + %vi] : memref<16xf32>) {
        %a = tir.load %A[%vo * 4 + %vi] : memref<16xf32>
        tir.store %a, %B[%vo * 4 + %vi] : memref<16xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.transform_layout %b {buffer_index = 0, buffer_index_type = "read", index_map = affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>} : !transform.any_op
    transform.tir.set_axis_separator %b {buffer_index = 0, buffer_index_type = "read", axis_separators = array<i64: 1>} : !transform.any_op
    transform.yield
  }
}

// -----

// transform_block_layout fuses a block's 8 x 4 iteration space into one
// variable; the body reads the old ones through the inverse, and the
// reduction keeps its kind.
// CHECK-LABEL: func.func @rowsum
// CHECK:         tir.for %[[AX0:.+]] = 0 to 8 {
// CHECK-NEXT:      tir.for %[[AX1:.+]] = 0 to 4 {
// CHECK-NEXT:        tir.block "S"(%[[V0:.+]] = spatial(8, %[[AX0]]), %[[V1:.+]] = reduce(4, %[[AX1]]))
// CHECK-NOT:     tir.for %i
// CHECK:       func.func @fused
// CHECK:         tir.for %[[F:.+]] = 0 to 32 {
// CHECK-NEXT:      tir.block "B"(%[[V:.+]] = spatial(32, %[[F]]))
// CHECK-NEXT:        tir.load %arg0[%[[V]] floordiv 4, %[[V]] mod 4]
func.func @rowsum(%A: memref<8x4xf32> {tir.name = "A"}, %S: memref<8xf32> {tir.name = "S"}) {
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 4 {
      tir.block "S"(%vi = spatial(8, %i), %vk = reduce(4, %k)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %S[%vi] : memref<8xf32>
        }
        %s = tir.load %S[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xf32>
        %t = arith.addf %s, %a : f32
        tir.store %t, %S[%vi] : memref<8xf32>
      }
    }
  }
  return
}
func.func @fused(%A: memref<8x4xf32> {tir.name = "A"}, %B: memref<8x4xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 4 {
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(4, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x4xf32>
        tir.store %a, %B[%vi, %vj] : memref<8x4xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.transform_block_layout %s {index_map = affine_map<(d0, d1) -> (d0, d1)>} : !transform.any_op
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.transform_block_layout %b {index_map = affine_map<(d0, d1) -> (d0 * 4 + d1)>} : !transform.any_op
    transform.yield
  }
}

// -----

// A map that pads (14 elements in 4 x 4) with a pad value, and a writer
// that visits B in row-major order (TVM's replacement plan): its loop
// becomes loops over the new shape, its block gets variables over it, and
// it stores the pad value on the padding (`v0 == 3 and 2 <= v1`) and its
// value elsewhere; only the else side reads A, whose end the padding
// points would pass. The reader goes through the map.
// CHECK-LABEL: func.func @padded
// CHECK:         %B = tir.alloc_buffer : memref<4x4xi32>
// CHECK:         tir.for %[[A0:.+]] = 0 to 4 {
// CHECK-NEXT:      tir.for %[[A1:.+]] = 0 to 4 {
// CHECK-NEXT:        tir.block "B"(%[[V0:.+]] = spatial(4, %[[A0]]), %[[V1:.+]] = spatial(4, %[[A1]])) {
// CHECK:               %[[LAST:.+]] = arith.cmpi eq, %[[V0]], %c3
// CHECK:               %[[PAST:.+]] = arith.cmpi sle, %c2, %[[V1]]
// CHECK:               %[[PAD:.+]] = arith.andi %[[LAST]], %[[PAST]] : i1
// CHECK-NEXT:          %[[VAL:.+]] = scf.if %[[PAD]] -> (i32) {
// CHECK-NEXT:            %[[P:.+]] = arith.constant -7 : i32
// CHECK-NEXT:            scf.yield %[[P]] : i32
// CHECK-NEXT:          } else {
// CHECK-NEXT:            %[[A:.+]] = tir.load %arg0[%[[V0]] * 4 + %[[V1]]]
// CHECK-NEXT:            scf.yield %[[A]] : i32
// CHECK-NEXT:          }
// CHECK-NEXT:          tir.store %[[VAL]], %B[%[[V0]], %[[V1]]]
// CHECK:         tir.block "C"
// CHECK:           tir.load %B[%{{.+}} floordiv 4, %{{.+}} mod 4]
func.func @padded(%A: memref<14xi32> {tir.name = "A"}, %C: memref<14xi32> {tir.name = "C"}) {
  %B = tir.alloc_buffer : memref<14xi32>
  tir.for %i = 0 to 14 {
    tir.block "B"(%vi = spatial(14, %i)) {
      %a = tir.load %A[%vi] : memref<14xi32>
      tir.store %a, %B[%vi] : memref<14xi32>
    }
  }
  tir.for %i = 0 to 14 {
    tir.block "C"(%vi = spatial(14, %i)) {
      %b = tir.load %B[%vi] : memref<14xi32>
      tir.store %b, %C[%vi] : memref<14xi32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.transform_layout %b {buffer_index = 0, buffer_index_type = "write", index_map = affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>, pad_value = -7 : i32} : !transform.any_op
    transform.yield
  }
}

// -----

// The writer of B also writes D, so its loop cannot run over the new
// shape (TVM's epilogue plan): the accesses go through the map, and after
// the writer's loop a block fills the padding.
// CHECK-LABEL: func.func @padded_side_effect
// CHECK:         tir.block "B"(%[[VI:.+]] = spatial(14, %i))
// CHECK:           tir.store %{{.+}}, %B[%[[VI]] floordiv 4, %[[VI]] mod 4]
// CHECK:         tir.for %[[A0:.+]] = 0 to 4 {
// CHECK-NEXT:      tir.for %[[A1:.+]] = 0 to 4 {
// CHECK-NEXT:        tir.block "buffer_B_padding"(%[[V0:.+]] = spatial(4, %[[A0]]), %[[V1:.+]] = spatial(4, %[[A1]])) where(%[[A0]] == 3 and %[[A1]] >= 2)
// CHECK-NEXT:          %[[P:.+]] = arith.constant -7 : i32
// CHECK-NEXT:          tir.store %[[P]], %B[%[[V0]], %[[V1]]]
func.func @padded_side_effect(%A: memref<14xi32> {tir.name = "A"}, %D: memref<14xi32> {tir.name = "D"}) {
  %B = tir.alloc_buffer : memref<14xi32>
  tir.for %i = 0 to 14 {
    tir.block "B"(%vi = spatial(14, %i)) {
      %a = tir.load %A[%vi] : memref<14xi32>
      tir.store %a, %B[%vi] : memref<14xi32>
      tir.store %a, %D[%vi] : memref<14xi32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.transform_layout %b {buffer_index = 0, buffer_index_type = "write", index_map = affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>, pad_value = -7 : i32} : !transform.any_op
    transform.yield
  }
}

// -----

// An input that pads (TVM's prologue plan): nobody here writes it, so a
// nest at the start of the function assumes that its padding holds the
// pad value (the caller provides it).
// CHECK-LABEL: func.func @padded_input
// CHECK-SAME:    %[[A:.+]]: memref<4x4xf32>
// CHECK:         tir.for %[[A0:.+]] = 0 to 4 {
// CHECK-NEXT:      tir.for %[[A1:.+]] = 0 to 4 {
// CHECK-NEXT:        tir.block "buffer_A_assumptions"(%[[V0:.+]] = spatial(4, %[[A0]]), %[[V1:.+]] = spatial(4, %[[A1]])) reads(%[[A]][%[[V0]], %[[V1]]]
// CHECK:               %[[PAD:.+]] = arith.andi
// CHECK:               %[[NOT:.+]] = arith.xori %[[PAD]], %true
// CHECK-NEXT:          %[[HELD:.+]] = tir.load %[[A]][%[[V0]], %[[V1]]]
// CHECK-NEXT:          %[[P:.+]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT:          %[[SAME:.+]] = arith.cmpf oeq, %[[HELD]], %[[P]] : f32
// CHECK-NEXT:          %[[OK:.+]] = arith.ori %[[NOT]], %[[SAME]] : i1
// CHECK-NEXT:          tir.call "assume"(%[[OK]])
// CHECK:         tir.block "B"
// CHECK:           tir.load %[[A]][%{{.+}} floordiv 4, %{{.+}} mod 4]
func.func @padded_input(%A: memref<14xf32> {tir.name = "A"}, %B: memref<14xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 14 {
    tir.block "B"(%vi = spatial(14, %i)) {
      %a = tir.load %A[%vi] : memref<14xf32>
      tir.store %a, %B[%vi] : memref<14xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.transform_layout %b {buffer_index = 0, buffer_index_type = "read", index_map = affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>, pad_value = 0.5 : f32} : !transform.any_op
    transform.yield
  }
}

// -----

// A reduction into a padded buffer, with the pad value computed from the
// new indices (`v0 + v1`): the init and the update both store it on the
// padding; the reduce variable and its loop stay.
// CHECK-LABEL: func.func @padded_reduction
// CHECK:         tir.for %[[A0:.+]] = 0 to 4 {
// CHECK-NEXT:      tir.for %[[A1:.+]] = 0 to 4 {
// CHECK-NEXT:        tir.for %[[K:.+]] = 0 to 8 {
// CHECK-NEXT:          tir.block "B"(%[[V0:.+]] = spatial(4, %[[A0]]), %[[V1:.+]] = spatial(4, %[[A1]]), %[[VK:.+]] = reduce(8, %[[K]])) {
// CHECK:                 tir.init {
// CHECK:                   scf.if
// CHECK:                     %[[S:.+]] = affine.apply #{{.+}}(%[[V0]], %[[V1]])
// CHECK-NEXT:                %[[C:.+]] = arith.index_cast %[[S]] : index to i32
// CHECK-NEXT:                scf.yield %[[C]] : i32
// CHECK:                 scf.if
// CHECK:                 } else {
// CHECK-NEXT:              tir.load %B[%[[V0]], %[[V1]]]
// CHECK-NEXT:              tir.load %arg0[%[[V0]] * 4 + %[[V1]], %[[VK]]]
func.func @padded_reduction(%A: memref<14x8xi32> {tir.name = "A"}, %C: memref<14xi32> {tir.name = "C"}) {
  %B = tir.alloc_buffer : memref<14xi32>
  tir.for %i = 0 to 14 {
    tir.for %k = 0 to 8 {
      tir.block "B"(%vi = spatial(14, %i), %vk = reduce(8, %k)) {
        tir.init {
          %z = arith.constant 0 : i32
          tir.store %z, %B[%vi] : memref<14xi32>
        }
        %b = tir.load %B[%vi] : memref<14xi32>
        %a = tir.load %A[%vi, %vk] : memref<14x8xi32>
        %s = arith.addi %b, %a : i32
        tir.store %s, %B[%vi] : memref<14xi32>
      }
    }
  }
  tir.for %i = 0 to 14 {
    tir.block "C"(%vi = spatial(14, %i)) {
      %b = tir.load %B[%vi] : memref<14xi32>
      tir.store %b, %C[%vi] : memref<14xi32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.transform_layout %b {buffer_index = 0, buffer_index_type = "write", index_map = affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>, pad_value = affine_map<(d0, d1) -> (d0 + d1)>} : !transform.any_op
    transform.yield
  }
}

// -----

// A mod that cuts nothing of its index's range is read as the index
// itself: (i mod 20) floordiv 8 over i in [0, 16) is i floordiv 8, a digit
// of i (2 values) above i mod 8 (8 values).
// CHECK-LABEL: func.func @idle_mod
// CHECK:         %B = tir.alloc_buffer : memref<2x8xf32>
// CHECK:         tir.store %{{.+}}, %B[%[[V:.+]] floordiv 8, %[[V]] mod 8]
func.func @idle_mod(%A: memref<16xf32> {tir.name = "A"}) {
  %B = tir.alloc_buffer : memref<16xf32>
  tir.for %i = 0 to 16 {
    tir.block "B"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi] : memref<16xf32>
      tir.store %a, %B[%vi] : memref<16xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.transform_layout %b {buffer_index = 0, buffer_index_type = "write", index_map = affine_map<(d0) -> ((d0 mod 20) floordiv 8, d0 mod 8)>} : !transform.any_op
    transform.yield
  }
}

// -----

// Axis separators on a buffer seen through views: a view of the buffer's
// rank takes them, a view of another rank (here a single element) as many
// at 0, as TVM places them. An identity layout with separators (TVM's
// `lambda i, j: [i, AXIS_SEPARATOR, j]`) rewrites nothing, views included.
// CHECK-LABEL: func.func @views
// CHECK:         %B = tir.alloc_buffer {axis_separators = array<i64: 1>} : memref<16x16xf32>
// CHECK:         tir.match_buffer %{{.*}} {axis_separators = array<i64: 0>} : memref<16x16xf32> -> memref<f32
// CHECK:         tir.match_buffer %{{.*}} {axis_separators = array<i64: 1>} : memref<16x16xf32> -> memref<4x4xf32
func.func @views(%A: memref<16x16xf32> {tir.name = "A"}, %C: memref<16x16xf32> {tir.name = "C"}) {
  %B = tir.alloc_buffer {buffer_name = "B"} : memref<16x16xf32>
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 16 {
      tir.block "B"(%vi = spatial(16, %i), %vj = spatial(16, %j))
          reads(%A[%vi, %vj] : memref<16x16xf32>) writes(%B[%vi, %vj] : memref<16x16xf32>) {
        %E = tir.match_buffer %B[%vi, %vj] : memref<16x16xf32> -> memref<f32, strided<[], offset: ?>>
        %a = tir.load %A[%vi, %vj] : memref<16x16xf32>
        tir.store %a, %E[] : memref<f32, strided<[], offset: ?>>
      }
    }
  }
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 4 {
      tir.block "C"(%vi = spatial(4, %i), %vj = spatial(4, %j))
          reads(%B[%vi * 4 : %vi * 4 + 4, %vj * 4 : %vj * 4 + 4] : memref<16x16xf32>)
          writes(%C[%vi * 4 : %vi * 4 + 4, %vj * 4 : %vj * 4 + 4] : memref<16x16xf32>) {
        %T = tir.match_buffer %B[%vi * 4 : %vi * 4 + 4, %vj * 4 : %vj * 4 + 4] : memref<16x16xf32> -> memref<4x4xf32, strided<[16, 1], offset: ?>>
        tir.for %ii = 0 to 4 {
          tir.for %jj = 0 to 4 {
            %b = tir.load %T[%ii, %jj] : memref<4x4xf32, strided<[16, 1], offset: ?>>
            tir.store %b, %C[%vi * 4 + %ii, %vj * 4 + %jj] : memref<16x16xf32>
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
    transform.tir.transform_layout %b {buffer_index = 0, buffer_index_type = "write", index_map = affine_map<(d0, d1) -> (d0, d1)>} : !transform.any_op
    transform.tir.set_axis_separator %b {buffer_index = 0, buffer_index_type = "write", axis_separators = array<i64: 1>} : !transform.any_op
    transform.yield
  }
}

// -----

// A map over a shape variable (named by index_map_symbols): a parameter of
// runtime shape flattened to `i * n + j`, with n read from the dimension
// tir.dim_vars names; its runtime extent is `?`, named by its form, 4 * n.
// CHECK-LABEL: func.func @runtime_rows
// CHECK-SAME:    %[[C:arg1]]: memref<?xf32> {tir.dim_vars = ["4 * n"]}
// CHECK:         %[[N:.+]] = memref.dim %{{.+}}, %{{.+}} : memref<?x8xf32>
// CHECK:         tir.block "C"(%[[VI:.+]] = spatial(4, %{{.+}}), %[[VJ:.+]] = spatial(%{{.+}}, %{{.+}}))
// CHECK-SAME:      writes(%[[C]][%[[VI]] * %[[N]] + %[[VJ]]] : memref<?xf32>)
// CHECK:           tir.store %{{.+}}, %[[C]][%[[VI]] * %[[N]] + %[[VJ]]] : memref<?xf32>
func.func @runtime_rows(%A: memref<?x8xf32> {tir.dim_vars = ["n", ""]}, %C: memref<4x?xf32> {tir.dim_vars = ["", "n"]}) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %A, %c0 : memref<?x8xf32>
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to %n {
      tir.block "C"(%vi = spatial(4, %i), %vj = spatial(%n, %j)) reads(%A[%vj, %vi * 2] : memref<?x8xf32>) writes(%C[%vi, %vj] : memref<4x?xf32>) {
        %a = tir.load %A[%vj, %vi * 2] : memref<?x8xf32>
        tir.store %a, %C[%vi, %vj] : memref<4x?xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.transform_layout %b {buffer_index = 0, buffer_index_type = "write", index_map = affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>, index_map_symbols = ["n"], assume_injective_transform = true} : !transform.any_op
    transform.yield
  }
}

// -----

// A map over a sampled value (a parameter, TVM's ExprRV in an index map):
// the map's first symbol is the parameter, its value when the step applies
// (here 4: C[i, j] becomes C[i floordiv 4, j, i mod 4]).
// CHECK-LABEL: func.func @sampled_factor
// CHECK:         tir.alloc_buffer : memref<2x8x4xf32>
// CHECK:         tir.store %{{.+}}, %{{.+}}[%{{.+}} floordiv 4, %{{.+}}, %{{.+}} mod 4] : memref<2x8x4xf32>
func.func @sampled_factor(%A: memref<8x8xf32>, %D: memref<8x8xf32>) {
  %C = tir.alloc_buffer : memref<8x8xf32>
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      tir.block "C"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x8xf32>
        tir.store %a, %C[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      tir.block "D"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %c = tir.load %C[%vi, %vj] : memref<8x8xf32>
        tir.store %c, %D[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %v = transform.tir.sample_categorical {candidates = array<i64: 2, 4>, probs = array<f64: 0.5, 0.5>, decision = 1} : () -> !transform.param<i64>
    transform.tir.transform_layout %b params(%v : !transform.param<i64>) {buffer_index = 0, buffer_index_type = "write", index_map = affine_map<(d0, d1)[s0] -> (d0 floordiv s0, d1, d0 mod s0)>} : !transform.any_op
    transform.yield
  }
}
