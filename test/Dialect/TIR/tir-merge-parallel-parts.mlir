// RUN: tir-opt %s -split-input-file --tir-partition-loops --convert-tir-to-scf --tir-merge-parallel-parts | FileCheck %s

// A parallel loop of 4 tiles of 32 over 100 elements: partitioning cuts it
// into [0, 3) and [3, 4), annotated as one group; after the conversion the
// parts are one parallel loop again, its body choosing each part's code
// (32 and 4 iterations) by the tile index, and no annotation is left.
// CHECK-LABEL: func.func @parallel_tail
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK:         scf.parallel (%[[I:.+]]) = (%[[C0]]) to (%[[C4]])
// CHECK-NEXT:      %[[BELOW:.+]] = arith.cmpi slt, %[[I]], %[[C3]] : index
// CHECK-NEXT:      scf.if %[[BELOW]] {
// CHECK:             scf.for %{{.+}} = %{{.+}} to %[[C32:.+]] step
// CHECK:           } else {
// CHECK:             scf.for %{{.+}} = %{{.+}} to %[[C4B:.+]] step
// CHECK:           scf.reduce
// CHECK-NOT:     scf.parallel
// CHECK-NOT:     partition_group
// CHECK:         return
func.func @parallel_tail(%a: memref<100xf32>, %b: memref<100xf32>) {
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

// -----

// Cut twice (a lower and an upper end): three parts, one loop, a chain of
// two tests; the loop's other annotations stay.
// CHECK-LABEL: func.func @three_parts
// CHECK:         scf.parallel
// CHECK:           arith.cmpi slt
// CHECK-NEXT:      scf.if
// CHECK:           } else {
// CHECK-NEXT:        arith.cmpi slt
// CHECK-NEXT:        scf.if
// CHECK:           tir.annotations = {keep = 1 : i64}
// CHECK-NOT:     scf.parallel
// CHECK:         return
func.func @three_parts(%a: memref<100xf32>, %b: memref<100xf32>) {
  tir.for %o = 0 to 4 parallel annotations {keep = 1 : i64} {
    tir.for %i = 0 to 32 {
      tir.block "B"(%v = spatial(100, %o * 32 + %i)) where(%o * 32 + %i >= 40 and %o * 32 + %i < 100) {
        %x = tir.load %a[%v] : memref<100xf32>
        tir.store %x, %b[%v] : memref<100xf32>
      }
    }
  }
  return
}

// -----

// Not merged: parts with a gap between them, and parts with a store between
// them; the annotation is dropped all the same.
// CHECK-LABEL: func.func @left_apart
// CHECK-COUNT-4: scf.parallel
// CHECK-NOT:     partition_group
// CHECK:         return
func.func @left_apart(%a: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c3) step (%c1) {
    memref.store %f, %a[%i] : memref<8xf32>
    scf.reduce
  } {tir.annotations = {partition_group = 0 : i64}}
  scf.parallel (%i) = (%c4) to (%c8) step (%c1) {
    memref.store %f, %a[%i] : memref<8xf32>
    scf.reduce
  } {tir.annotations = {partition_group = 0 : i64}}
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %f, %a[%i] : memref<8xf32>
    scf.reduce
  } {tir.annotations = {partition_group = 1 : i64}}
  memref.store %f, %a[%c0] : memref<8xf32>
  scf.parallel (%i) = (%c4) to (%c8) step (%c1) {
    memref.store %f, %a[%i] : memref<8xf32>
    scf.reduce
  } {tir.annotations = {partition_group = 1 : i64}}
  return
}
