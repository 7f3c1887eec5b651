// RUN: tir-opt %s --tir-remove-assume --split-input-file | FileCheck %s

// transform_layout's assumption nest on a padded input: the call, the
// load and the condition it alone used, the emptied block and its loops
// all go; the computation after it stays.
// CHECK-LABEL: func.func @assumption_nest
// CHECK-NOT:     tir.call
// CHECK-NOT:     buffer_A_assumptions
// CHECK:         tir.for %{{.+}} = 0 to 14 {
// CHECK-NEXT:      tir.block "B"
// CHECK-NEXT:        tir.load %arg0[%{{.+}} floordiv 4, %{{.+}} mod 4]
func.func @assumption_nest(%A: memref<4x4xi32> {tir.name = "A"}, %B: memref<14xi32> {tir.name = "B"}) {
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 4 {
      tir.block "buffer_A_assumptions"(%vi = spatial(4, %i), %vj = spatial(4, %j)) {
        %c3 = arith.constant 3 : index
        %0 = arith.cmpi eq, %vi, %c3 : index
        %c2 = arith.constant 2 : index
        %1 = arith.cmpi sle, %c2, %vj : index
        %2 = arith.andi %0, %1 : i1
        %true = arith.constant true
        %3 = arith.xori %2, %true : i1
        %4 = tir.load %A[%vi, %vj] : memref<4x4xi32>
        %c42 = arith.constant 42 : i32
        %5 = arith.cmpi eq, %4, %c42 : i32
        %6 = arith.ori %3, %5 : i1
        tir.call "assume"(%6) : (i1) -> ()
      }
    }
  }
  tir.for %i = 0 to 14 {
    tir.block "B"(%vi = spatial(14, %i)) {
      %a = tir.load %A[%vi floordiv 4, %vi mod 4] : memref<4x4xi32>
      tir.store %a, %B[%vi] : memref<14xi32>
    }
  }
  return
}

// -----

// An assumption beside other work: only the call and what fed it alone go;
// the value also stored stays, and so do the block and its loop.
// CHECK-LABEL: func.func @assumption_beside_a_store
// CHECK:         tir.block "B"
// CHECK-NEXT:      %[[A:.+]] = tir.load %arg0[%{{.+}}]
// CHECK-NOT:       tir.call
// CHECK:           tir.store %[[A]], %arg1
func.func @assumption_beside_a_store(%A: memref<8xi32> {tir.name = "A"}, %B: memref<8xi32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xi32>
      %c0 = arith.constant 0 : i32
      %pos = arith.cmpi sge, %a, %c0 : i32
      tir.call "assume"(%pos) : (i1) -> ()
      tir.store %a, %B[%vi] : memref<8xi32>
    }
  }
  return
}
