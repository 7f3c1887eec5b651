// RUN: tir-opt %s -split-input-file --tir-cache-workspace | FileCheck %s

// The lowering's generic allocation functions get private definitions: 64
// slots of freed blocks, taken by atomic exchange, aligned_alloc / free
// behind them (free declared once). Every build runs them (python/tests
// build and run programs with heap buffers through the whole pipeline).
// The allocations stay calls whose result aliases nothing, as malloc's:
// the optimizer then knows a buffer allocated inside a loop is none of the
// program's others (python/tests/test_cpu_schedules.py checks the effect).
// CHECK-LABEL: module
// CHECK-DAG:     llvm.func @aligned_alloc(i64, i64) -> !llvm.ptr
// CHECK-DAG:     llvm.func @free(!llvm.ptr)
// CHECK-DAG:     llvm.mlir.global internal @__tir_workspace_slots() {{.*}} : !llvm.array<64 x ptr>
// CHECK:         llvm.func internal @__tir_workspace_release(%{{.+}}: !llvm.ptr) {
// CHECK:           llvm.call @free
// CHECK:         llvm.func internal @_mlir_memref_to_llvm_aligned_alloc(%{{.+}}: i64, %{{.+}}: i64) -> (!llvm.ptr {llvm.noalias}) attributes {no_inline} {
// CHECK:           llvm.atomicrmw xchg
// CHECK:           llvm.call @aligned_alloc
// CHECK:         llvm.func internal @_mlir_memref_to_llvm_alloc(%{{.+}}: i64) -> (!llvm.ptr {llvm.noalias}) attributes {no_inline} {
// CHECK:           llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CHECK:         llvm.func internal @_mlir_memref_to_llvm_free(%{{.+}}: !llvm.ptr) {
// CHECK:           llvm.cmpxchg
// CHECK:           llvm.call @__tir_workspace_release
// CHECK-NOT:     llvm.func @_mlir_memref_to_llvm
module {
  llvm.func @_mlir_memref_to_llvm_alloc(i64) -> !llvm.ptr
  llvm.func @_mlir_memref_to_llvm_aligned_alloc(i64, i64) -> !llvm.ptr
  llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
  llvm.func @free(!llvm.ptr)
  llvm.func @work(%n: i64) {
    %a = llvm.mlir.constant(128 : i64) : i64
    %p = llvm.call @_mlir_memref_to_llvm_alloc(%n) : (i64) -> !llvm.ptr
    %q = llvm.call @_mlir_memref_to_llvm_aligned_alloc(%a, %n) : (i64, i64) -> !llvm.ptr
    llvm.call @_mlir_memref_to_llvm_free(%p) : (!llvm.ptr) -> ()
    llvm.call @_mlir_memref_to_llvm_free(%q) : (!llvm.ptr) -> ()
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
