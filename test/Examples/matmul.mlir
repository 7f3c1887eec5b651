// Round trip of examples/matmul.mlir in the custom and the generic form.
// RUN: tir-opt %tir_src_root/examples/matmul.mlir | tir-opt | FileCheck %s
// RUN: tir-opt %tir_src_root/examples/matmul.mlir -mlir-print-op-generic | tir-opt | FileCheck %s

// CHECK-LABEL: func.func @matmul
// CHECK-SAME:    (%[[A:.+]]: memref<128x128xf32> {tir.name = "A"}, %[[B:.+]]: memref<128x128xf32> {tir.name = "B"}, %[[C:.+]]: memref<128x128xf32> {tir.name = "C"})
// CHECK-NEXT:    tir.for %[[I:.+]] = 0 to 128 {
// CHECK-NEXT:      tir.for %[[J:.+]] = 0 to 128 {
// CHECK-NEXT:        tir.for %[[K:.+]] = 0 to 128 {
// CHECK-NEXT:          tir.block "C"(%[[VI:.+]] = spatial(128, %[[I]]), %[[VJ:.+]] = spatial(128, %[[J]]), %[[VK:.+]] = reduce(128, %[[K]])) {
// CHECK-NEXT:            tir.init {
// CHECK-NEXT:              %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:              tir.store %[[ZERO]], %[[C]][%[[VI]], %[[VJ]]]
// CHECK-NEXT:            }
// CHECK-NEXT:            %[[CV:.+]] = tir.load %[[C]][%[[VI]], %[[VJ]]]
// CHECK-NEXT:            %[[AV:.+]] = tir.load %[[A]][%[[VI]], %[[VK]]]
// CHECK-NEXT:            %[[BV:.+]] = tir.load %[[B]][%[[VK]], %[[VJ]]]
// CHECK-NEXT:            %[[P:.+]] = arith.mulf %[[AV]], %[[BV]] : f32
// CHECK-NEXT:            %[[S:.+]] = arith.addf %[[CV]], %[[P]] : f32
// CHECK-NEXT:            tir.store %[[S]], %[[C]][%[[VI]], %[[VJ]]]
// CHECK-NEXT:          }
