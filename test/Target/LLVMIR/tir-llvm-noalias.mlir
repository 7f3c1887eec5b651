// RUN: tir-opt %s --tir-llvm-noalias | FileCheck %s

// The pointers tir.noalias_params lists become llvm.noalias parameters and
// the attribute goes; a listed position past the end, negative (found by
// tir-fuzz-lower: it read before the argument types) or not a pointer is
// skipped.
// CHECK-LABEL: llvm.func @kernel(
// CHECK-SAME:    %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr {llvm.noalias}, %{{.+}}: i64,
// CHECK-SAME:    %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr {llvm.noalias}, %{{.+}}: i64)
// CHECK-NOT:     tir.noalias_params
// CHECK:         llvm.return
llvm.func @kernel(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64,
                  %b0: !llvm.ptr, %b1: !llvm.ptr, %b2: i64)
    attributes {tir.noalias_params = array<i64: 1, 2, -2, 4, 9>} {
  llvm.return
}

// A C wrapper inherits the attribute but takes descriptors: it loses the
// attribute and gets no noalias.
// CHECK-LABEL: llvm.func @_mlir_ciface_kernel(
// CHECK-SAME:    %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr)
// CHECK-NOT:     tir.noalias_params
// CHECK:         llvm.return
llvm.func @_mlir_ciface_kernel(%a: !llvm.ptr, %b: !llvm.ptr)
    attributes {tir.noalias_params = array<i64: 1>} {
  llvm.return
}
