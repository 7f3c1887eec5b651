// RUN: tir-opt %s -split-input-file --tir-cache-workspace | FileCheck %s

// The lowering's generic allocation functions get private definitions: 8
// slots of freed blocks, taken by atomic exchange, malloc / free behind
// them (declared once). Every build runs them (python/tests build and run
// programs with heap buffers through the whole pipeline).
// CHECK-LABEL: module
// CHECK-DAG:     llvm.func @malloc(i64) -> !llvm.ptr
// CHECK-DAG:     llvm.func @free(!llvm.ptr)
// CHECK-DAG:     llvm.mlir.global internal @__tir_workspace_slots() {{.*}} : !llvm.array<8 x ptr>
// CHECK:         llvm.func internal @_mlir_memref_to_llvm_alloc(%{{.+}}: i64) -> !llvm.ptr {
// CHECK:           llvm.atomicrmw xchg
// CHECK:           llvm.call @malloc
// CHECK:         llvm.func internal @_mlir_memref_to_llvm_free(%{{.+}}: !llvm.ptr) {
// CHECK:           llvm.cmpxchg
// CHECK:           llvm.call @free
module {
  llvm.func @_mlir_memref_to_llvm_alloc(i64) -> !llvm.ptr
  llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
  llvm.func @free(!llvm.ptr)
  llvm.func @work(%n: i64) {
    %p = llvm.call @_mlir_memref_to_llvm_alloc(%n) : (i64) -> !llvm.ptr
    llvm.call @_mlir_memref_to_llvm_free(%p) : (!llvm.ptr) -> ()
    llvm.return
  }
}

// -----

// A module that defines its own allocator is left as it is.
// CHECK-LABEL: module
// CHECK-NOT:     __tir_workspace_slots
// CHECK:         llvm.func @_mlir_memref_to_llvm_alloc(%{{.+}}: i64) -> !llvm.ptr {
// CHECK-NOT:     __tir_workspace_slots
module {
  llvm.func @_mlir_memref_to_llvm_alloc(%n: i64) -> !llvm.ptr {
    %0 = llvm.mlir.zero : !llvm.ptr
    llvm.return %0 : !llvm.ptr
  }
  llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
}
