// RUN: consumer-opt %s --consumer-tosa-to-tir | FileCheck %s
// RUN: consumer-opt %s --consumer-tosa-to-tir --tir-lower-to-llvm | FileCheck %s --check-prefix=LLVM

// The consumer's own front end (TOSA)
// reaches tir blocks through its pipeline, then tir's lowering.
// CHECK-LABEL: func.func @main
// CHECK:         tir.block "T_add"
// CHECK:           arith.addf
// CHECK:         tir.block "compute"
// CHECK:           arith.maximumf
// LLVM:          llvm.func @main
func.func @main(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.add %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tosa.clamp %0 {min_val = 0.0 : f32, max_val = 3.4028235e+38 : f32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
