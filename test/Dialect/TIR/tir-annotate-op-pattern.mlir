// --tir-annotate-op-pattern: an element-wise prim_func is element-wise
// (0); the same computation scheduled for a GPU (a loop bound to threads)
// is opaque (8), so that FuseOps leaves the kernel and its schedule whole.
// RUN: tir-opt %s --tir-annotate-op-pattern | FileCheck %s

// CHECK-LABEL: func.func private @relu(
// CHECK-SAME:    attributes {tir.op_pattern = 0 : i64}
func.func private @relu(%a: memref<64xf32>, %b: memref<64xf32>) {
  tir.for %i = 0 to 64 {
    tir.block "relu"(%v = spatial(64, %i)) {
      %x = tir.load %a[%v] : memref<64xf32>
      %zero = arith.constant 0.0 : f32
      %y = arith.maximumf %x, %zero : f32
      tir.store %y, %b[%v] : memref<64xf32>
    }
  }
  return
}

// CHECK-LABEL: func.func private @relu_kernel(
// CHECK-SAME:    attributes {tir.op_pattern = 8 : i64}
func.func private @relu_kernel(%a: memref<64xf32>, %b: memref<64xf32>) {
  tir.for %bx = 0 to 2 thread_binding<"blockIdx.x"> {
    tir.for %tx = 0 to 32 thread_binding<"threadIdx.x"> {
      tir.block "relu"(%v = spatial(64, %bx * 32 + %tx)) {
        %x = tir.load %a[%v] : memref<64xf32>
        %zero = arith.constant 0.0 : f32
        %y = arith.maximumf %x, %zero : f32
        tir.store %y, %b[%v] : memref<64xf32>
      }
    }
  }
  return
}
