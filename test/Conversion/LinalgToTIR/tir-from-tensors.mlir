// --tir-from-tensors: a front end's tensors (linalg on tensors, as
// torch-mlir emits it; TOSA) to tir blocks to schedule, TVM's way: every op
// its own buffer (the function's tir.alloc_buffer, named after the block
// writing it), the result an output parameter, a fill that starts a
// matrix product folded into its T.init.
// RUN: tir-opt %s --tir-from-tensors -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @dense_relu
// CHECK-SAME:    (%{{.+}}: memref<8x16xf32>, %{{.+}}: memref<16x4xf32>, %[[OUT:.+]]: memref<8x4xf32>)
// CHECK-NEXT:    %[[MM:.+]] = tir.alloc_buffer : memref<8x4xf32>
// CHECK-NOT:     tir.block "T_full"
// CHECK:         tir.block "matmul"
// CHECK-NEXT:      tir.init {
// CHECK:           tir.store %{{.+}}, %[[MM]]
// CHECK:         tir.block "compute"
// CHECK:           tir.store %{{.+}}, %[[OUT]]
// CHECK-NOT:     memref.
// CHECK-NOT:     linalg.
// CHECK:         return
func.func @dense_relu(%x: tensor<8x16xf32>, %w: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %m = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x4xf32>) outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.maximumf %a, %zero : f32
    linalg.yield %v : f32
  } -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

// TOSA, through upstream's tosa-to-linalg.
// CHECK-LABEL: func.func @tosa
// CHECK:         tir.block "T_add"
// CHECK:         tir.block "compute"
// CHECK-NOT:     tosa.
func.func @tosa(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.add %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tosa.clamp %0 {min_val = 0.0 : f32, max_val = 3.4028235e+38 : f32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
