// RUN: tir-opt %s --split-input-file --tir-graph-buffers-to-device | FileCheck %s
// RUN: tir-opt %s --split-input-file --tir-graph-buffers-to-device --finalize-memref-to-llvm --gpu-to-llvm --convert-to-llvm --reconcile-unrealized-casts | FileCheck %s --check-prefix=LLVM

// A graph function's intermediates are allocated and freed in GPU memory,
// its copies are GPU copies, and its constant (a weight) is read from the
// runtime's copy of it on the device; the prim_func it calls is left alone.
// CHECK-LABEL: llvm.mlir.global internal @__tir_device___constant_8x16xf32()
// CHECK-NEXT:    llvm.mlir.zero : !llvm.ptr
// CHECK:       func.func private @kernel(
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    attributes {tir.graph}
// CHECK:         %[[HOST:.*]] = memref.get_global @__constant_8x16xf32
// CHECK:         %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[HOST]]
// CHECK:         %[[SLOT:.*]] = llvm.mlir.addressof @__tir_device___constant_8x16xf32
// CHECK:         %[[BYTES:.*]] = llvm.mlir.constant(512 : i64)
// CHECK:         %[[DATA:.*]] = llvm.call @tirCudaConstant(%[[SLOT]], %{{.*}}, %[[BYTES]])
// CHECK:         %[[W:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<{{.*}}> to memref<8x16xf32>
// CHECK:         %[[A0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T:.*]], %[[A1:.*]] = gpu.alloc async [%[[A0]]] () : memref<4x16xf32>
// CHECK-NEXT:    gpu.wait [%[[A1]]]
// CHECK:         call @kernel(%arg0, %[[W]], %[[T]])
// CHECK:         %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T1:.*]] = gpu.memcpy async [%[[T0]]] %arg1, %[[T]]
// CHECK-NEXT:    gpu.wait [%[[T1]]]
// CHECK:         %[[T2:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T3:.*]] = gpu.dealloc async [%[[T2]]] %[[T]]
// CHECK-NEXT:    gpu.wait [%[[T3]]]
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.dealloc
// CHECK-LABEL: llvm.func internal @__tir_release_device_constants()
// CHECK-NEXT:    llvm.mlir.addressof @__tir_device___constant_8x16xf32
// CHECK-NEXT:    llvm.call @tirCudaReleaseConstant
// CHECK:       llvm.mlir.global_dtors dtors = [@__tir_release_device_constants]

// After lowering: the runtime's allocator, copy and free, and the
// constant's device copy in the descriptor of the weight.
// LLVM-LABEL: llvm.func @main(
// LLVM:         llvm.call @tirCudaConstant
// LLVM:         llvm.call @mgpuMemAlloc
// LLVM:         llvm.call @kernel
// LLVM:         llvm.call @mgpuMemcpy
// LLVM:         llvm.call @mgpuMemFree
// LLVM-NOT:     llvm.call @malloc
// LLVM-NOT:     llvm.call @free
module {
  memref.global "private" constant @__constant_8x16xf32 : memref<8x16xf32> = dense<1.0> {alignment = 64 : i64}
  func.func private @kernel(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
    return
  }
  func.func @main(%x: memref<4x8xf32>, %out: memref<4x16xf32> {tir.result}) attributes {tir.graph} {
    %w = memref.get_global @__constant_8x16xf32 : memref<8x16xf32>
    %t = memref.alloc() {alignment = 64 : i64} : memref<4x16xf32>
    call @kernel(%x, %w, %t) : (memref<4x8xf32>, memref<8x16xf32>, memref<4x16xf32>) -> ()
    memref.copy %t, %out : memref<4x16xf32> to memref<4x16xf32>
    memref.dealloc %t : memref<4x16xf32>
    return
  }
}

// -----

// Dynamic sizes stay the allocation's; views of GPU tensors are views.
// CHECK-LABEL: func.func @dynamic(
// CHECK:         %[[T:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%{{.*}}) : memref<?x16xf32>
// CHECK:         memref.collapse_shape %[[T]]
// LLVM-LABEL: llvm.func @dynamic(
// LLVM:         llvm.call @mgpuMemAlloc
// LLVM:         llvm.call @mgpuMemFree
func.func private @k(%a: memref<?xf32>)
func.func @dynamic(%x: memref<?x16xf32>) attributes {tir.graph} {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x16xf32>
  %t = memref.alloc(%n) : memref<?x16xf32>
  %v = memref.collapse_shape %t [[0, 1]] : memref<?x16xf32> into memref<?xf32>
  memref.dealloc %t : memref<?x16xf32>
  return
}

// -----

// Functions without tir.graph (prim_funcs, their host code) are left alone.
// CHECK-LABEL: func.func @not_graph(
// CHECK:         memref.alloc
// CHECK:         memref.load
// CHECK-NOT:     gpu.alloc
func.func @not_graph(%x: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %t = memref.alloc() : memref<4xf32>
  %v = memref.load %t[%c0] : memref<4xf32>
  memref.dealloc %t : memref<4xf32>
  return %v : f32
}
