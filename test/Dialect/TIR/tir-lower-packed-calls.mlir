// --tir-lower-packed-calls: calls of packed functions (declarations marked
// tir.packed) go through the runtime's dispatcher, the pointer
// __tir_packed_call, with a description of each buffer.
// RUN: tir-opt %s --tir-lower-packed-calls | FileCheck %s

// CHECK:       llvm.mlir.global external @__tir_packed_call() {{.*}} : !llvm.ptr
// CHECK:       llvm.mlir.global internal constant @[[NAME:__tir_packed_name_[0-9]+]]("env.scale\00")
// CHECK-NOT:   func.func private @"env.scale"
func.func private @"env.scale"(memref<?x2xf32>, memref<?x2xf32>) attributes {tir.packed = 1 : i64}

// Per buffer: DLPack's float (2) of 32 bits, rank 2, the data's address,
// the sizes and the strides; then the call of the loaded pointer on the
// name, "fills its output" (0), one input and one output.
// CHECK-LABEL: func.func @main
// CHECK:         memref.extract_strided_metadata %arg0
// CHECK:         arith.constant 2 : i64
// CHECK:         arith.constant 32 : i64
// CHECK:         memref.extract_strided_metadata %arg1
// CHECK:         %[[SLOTS:.*]] = llvm.alloca %{{.*}} x i64
// CHECK-COUNT-14: llvm.store
// CHECK:         %[[HOOK_ADDRESS:.*]] = llvm.mlir.addressof @__tir_packed_call
// CHECK:         %[[HOOK:.*]] = llvm.load %[[HOOK_ADDRESS]] : !llvm.ptr -> !llvm.ptr
// CHECK:         %[[NAME_ADDRESS:.*]] = llvm.mlir.addressof @[[NAME]]
// CHECK:         llvm.call %[[HOOK]](%[[NAME_ADDRESS]], %{{.*}}, %{{.*}}, %{{.*}}, %[[SLOTS]]) : !llvm.ptr, (!llvm.ptr, i32, i32, i32, !llvm.ptr) -> i32
// CHECK-NOT:     call @"env.scale"
func.func @main(%x: memref<?x2xf32>, %y: memref<?x2xf32>) {
  call @"env.scale"(%x, %y) : (memref<?x2xf32>, memref<?x2xf32>) -> ()
  return
}
