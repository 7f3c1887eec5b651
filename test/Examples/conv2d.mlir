// Round trip of examples/conv2d.mlir in the custom and the generic form.
// RUN: tir-opt %tir_src_root/examples/conv2d.mlir | tir-opt | FileCheck %s
// RUN: tir-opt %tir_src_root/examples/conv2d.mlir -mlir-print-op-generic | tir-opt | FileCheck %s

// CHECK-LABEL: func.func @conv2d_pool
// CHECK-SAME:    (%[[I:.+]]: memref<1x4x18x18xf32> {tir.name = "I"}, %[[W:.+]]: memref<8x4x3x3xf32> {tir.name = "W"}, %[[P:.+]]: memref<1x8x8x8xf32> {tir.name = "P"})
// CHECK-NEXT:    %[[O:.+]] = tir.alloc_buffer : memref<1x8x16x16xf32>
// CHECK-COUNT-7: tir.for
// CHECK-NEXT:    tir.block "conv"(%[[VN:.+]] = spatial(1, %{{.+}}), %[[VF:.+]] = spatial(8, %{{.+}}), %[[VY:.+]] = spatial(16, %{{.+}}), %[[VX:.+]] = spatial(16, %{{.+}}), %[[VC:.+]] = reduce(4, %{{.+}}), %[[VKY:.+]] = reduce(3, %{{.+}}), %[[VKX:.+]] = reduce(3, %{{.+}})) {
// CHECK-NEXT:      tir.init {
// CHECK:           tir.load %[[I]][%[[VN]], %[[VC]], %[[VY]] + %[[VKY]], %[[VX]] + %[[VKX]]]
// CHECK-NEXT:      tir.load %[[W]][%[[VF]], %[[VC]], %[[VKY]], %[[VKX]]]
// CHECK:         tir.block "pool"(%[[PN:.+]] = spatial(1, %{{.+}}), %[[PF:.+]] = spatial(8, %{{.+}}), %[[PY:.+]] = spatial(8, %{{.+}}), %[[PX:.+]] = spatial(8, %{{.+}}), %[[RY:.+]] = reduce(2, %{{.+}}), %[[RX:.+]] = reduce(2, %{{.+}})) {
// CHECK:           tir.load %[[O]][%[[PN]], %[[PF]], %[[PY]] * 2 + %[[RY]], %[[PX]] * 2 + %[[RX]]]
// CHECK:           arith.maximumf
