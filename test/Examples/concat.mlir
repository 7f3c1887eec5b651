// Round trip of examples/concat.mlir in the custom and the generic form.
// RUN: tir-opt %tir_src_root/examples/concat.mlir | tir-opt | FileCheck %s
// RUN: tir-opt %tir_src_root/examples/concat.mlir -mlir-print-op-generic | tir-opt | FileCheck %s

// CHECK-LABEL: func.func @concat
// CHECK-SAME:    (%[[A0:.+]]: memref<10xf32> {tir.name = "A0"}, %[[A1:.+]]: memref<10xf32> {tir.name = "A1"}, %[[A2:.+]]: memref<10xf32> {tir.name = "A2"}, %[[B:.+]]: memref<30xf32> {tir.name = "B"})
// CHECK:         tir.block "B0"(%[[V0:.+]] = spatial(10, %{{.+}})) {
// CHECK-NEXT:      %[[X0:.+]] = tir.load %[[A0]][%[[V0]]]
// CHECK-NEXT:      tir.store %[[X0]], %[[B]][%[[V0]]] : memref<30xf32>
// CHECK:         tir.block "B1"(%[[V1:.+]] = spatial(10, %{{.+}})) {
// CHECK-NEXT:      %[[X1:.+]] = tir.load %[[A1]][%[[V1]]]
// CHECK-NEXT:      tir.store %[[X1]], %[[B]][%[[V1]] + 10] : memref<30xf32>
// CHECK:         tir.block "B2"(%[[V2:.+]] = spatial(10, %{{.+}})) {
// CHECK-NEXT:      %[[X2:.+]] = tir.load %[[A2]][%[[V2]]]
// CHECK-NEXT:      tir.store %[[X2]], %[[B]][%[[V2]] + 20] : memref<30xf32>
