// Round trip of examples/vector_add.mlir in the custom and the generic form.
// RUN: tir-opt %tir_src_root/examples/vector_add.mlir | tir-opt | FileCheck %s
// RUN: tir-opt %tir_src_root/examples/vector_add.mlir -mlir-print-op-generic | tir-opt | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[A:.+]]: memref<8xf32> {tir.name = "A"}, %[[B:.+]]: memref<8xf32> {tir.name = "B"})
// CHECK-NEXT:    tir.for %[[I:.+]] = 0 to 8 {
// CHECK-NEXT:      tir.block "B"(%[[VI:.+]] = spatial(8, %[[I]])) {
// CHECK-NEXT:        %[[X:.+]] = tir.load %[[A]][%[[VI]]] : memref<8xf32>
// CHECK-NEXT:        %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:        %[[Y:.+]] = arith.addf %[[X]], %[[ONE]] : f32
// CHECK-NEXT:        tir.store %[[Y]], %[[B]][%[[VI]]] : memref<8xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    return
