// RUN: tir-opt %s --convert-tir-to-gpu=require-kernels --split-input-file | FileCheck %s

// A global buffer one kernel writes and the next reads (of a runtime size
// here): the host part allocates it in GPU memory before the kernels, in
// order with them on the runtime's stream, and frees it after them.
// CHECK-LABEL: func.func @two_kernels
// CHECK-SAME:    (%[[A:.*]]: memref<?xf32>{{.*}}, %[[B:.*]]: memref<?xf32>{{.*}}, %[[N:.*]]: index
// CHECK:         %[[T0:.*]] = gpu.wait async
// CHECK:         %[[G:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] (%[[N]]) : memref<?xf32>
// CHECK:         gpu.wait [%[[T1]]]
// CHECK-NOT:     tir.alloc_buffer
// CHECK:         gpu.launch
// CHECK:           tir.store {{.*}}, %[[G]]
// CHECK:         gpu.launch
// CHECK:           tir.load %[[G]]
// CHECK:         %[[T2:.*]] = gpu.wait async
// CHECK:         %[[T3:.*]] = gpu.dealloc async [%[[T2]]] %[[G]] : memref<?xf32>
// CHECK:         gpu.wait [%[[T3]]]
// CHECK-NEXT:    return
func.func @two_kernels(%A: memref<?xf32> {tir.name = "A"}, %B: memref<?xf32> {tir.name = "B"}, %n: index) {
  %G = tir.alloc_buffer(%n) {buffer_name = "G"} : memref<?xf32>
  tir.for %b = 0 to %n thread_binding<"blockIdx.x"> {
    tir.block "W"(%vi = spatial(%n, %b)) {
      %a = tir.load %A[%vi] : memref<?xf32>
      %two = arith.constant 2.0 : f32
      %d = arith.mulf %a, %two : f32
      tir.store %d, %G[%vi] : memref<?xf32>
    }
  }
  tir.for %b = 0 to %n thread_binding<"blockIdx.x"> {
    tir.block "R"(%vi = spatial(%n, %b)) {
      %g = tir.load %G[%vi] : memref<?xf32>
      tir.store %g, %B[%vi] : memref<?xf32>
    }
  }
  return
}

// -----

// A shared buffer used in one kernel stays the kernel's (placed in it),
// and a global buffer no kernel uses is left to the host.
// CHECK-LABEL: func.func @not_intermediates
// CHECK-NOT:     gpu.alloc
// CHECK:         tir.alloc_buffer : memref<8xf32>
// CHECK-NOT:     gpu.alloc
func.func @not_intermediates(%A: memref<8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}) {
  %S = tir.alloc_buffer {buffer_name = "S"} : memref<8xf32, "shared">
  %H = tir.alloc_buffer {buffer_name = "H"} : memref<8xf32>
  tir.for %b = 0 to 1 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 8 thread_binding<"threadIdx.x"> {
      tir.block "W"(%vb = spatial(1, %b), %vi = spatial(8, %t)) {
        %a = tir.load %A[%vi] : memref<8xf32>
        tir.store %a, %S[%vi] : memref<8xf32, "shared">
      }
    }
    tir.for %t = 0 to 8 thread_binding<"threadIdx.x"> {
      tir.block "R"(%vb = spatial(1, %b), %vi = spatial(8, %t)) {
        %s = tir.load %S[7 - %vi] : memref<8xf32, "shared">
        tir.store %s, %B[%vi] : memref<8xf32>
      }
    }
  }
  return
}
