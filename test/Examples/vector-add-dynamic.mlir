// Round trip of examples/vector_add_dynamic.mlir (a scalar parameter sizes
// the loop and the iteration domain) in the custom and the generic form.
// RUN: tir-opt %tir_src_root/examples/vector_add_dynamic.mlir | tir-opt | FileCheck %s
// RUN: tir-opt %tir_src_root/examples/vector_add_dynamic.mlir -mlir-print-op-generic | tir-opt | FileCheck %s

// CHECK-LABEL: func.func @add_one
// CHECK-SAME:    (%[[N:.+]]: index {tir.name = "n"}, %[[A:.+]]: memref<?xf32> {tir.dim_vars = ["n"], tir.name = "A"}, %[[B:.+]]: memref<?xf32> {tir.dim_vars = ["n"], tir.name = "B"})
// CHECK-NEXT:    tir.for %[[I:.+]] = 0 to %[[N]] {
// CHECK-NEXT:      tir.block "B"(%[[VI:.+]] = spatial(%[[N]], %[[I]])) {
// CHECK-NEXT:        tir.load %[[A]][%[[VI]]] : memref<?xf32>
