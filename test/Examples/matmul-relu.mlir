// Round trip of examples/matmul_relu.mlir in the custom and the generic form.
// RUN: tir-opt %tir_src_root/examples/matmul_relu.mlir | tir-opt | FileCheck %s
// RUN: tir-opt %tir_src_root/examples/matmul_relu.mlir -mlir-print-op-generic | tir-opt | FileCheck %s

// CHECK-LABEL: func.func @matmul_relu
// CHECK-SAME:    (%[[A:.+]]: memref<128x128xf32> {tir.name = "A"}, %[[B:.+]]: memref<128x128xf32> {tir.name = "B"}, %[[D:.+]]: memref<128x128xf32> {tir.name = "D"})
// CHECK-NEXT:    %[[Y:.+]] = tir.alloc_buffer : memref<128x128xf32>
// CHECK-NEXT:    tir.for %[[I:.+]] = 0 to 128 {
// CHECK-NEXT:      tir.for %[[J:.+]] = 0 to 128 {
// CHECK-NEXT:        tir.for %[[K:.+]] = 0 to 128 {
// CHECK-NEXT:          tir.block "Y"(%[[VI:.+]] = spatial(128, %[[I]]), %[[VJ:.+]] = spatial(128, %[[J]]), %[[VK:.+]] = reduce(128, %[[K]])) {
// CHECK-NEXT:            tir.init {
// CHECK:                   tir.store %{{.+}}, %[[Y]][%[[VI]], %[[VJ]]]
// CHECK:                 tir.load %[[A]][%[[VI]], %[[VK]]]
// CHECK:                 tir.store %{{.+}}, %[[Y]][%[[VI]], %[[VJ]]]
// CHECK:         tir.for %[[I2:.+]] = 0 to 128 {
// CHECK-NEXT:      tir.for %[[J2:.+]] = 0 to 128 {
// CHECK-NEXT:        tir.block "D"(%[[WI:.+]] = spatial(128, %[[I2]]), %[[WJ:.+]] = spatial(128, %[[J2]])) {
// CHECK-NEXT:          %[[YV:.+]] = tir.load %[[Y]][%[[WI]], %[[WJ]]]
// CHECK-NEXT:          %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:          %[[R:.+]] = arith.maximumf %[[YV]], %[[Z]] : f32
// CHECK-NEXT:          tir.store %[[R]], %[[D]][%[[WI]], %[[WJ]]]
