// The stock mlir-opt of LLVM 22 reads and writes tir through the plugin,
// and runs tir's passes through it.
// REQUIRES: stock-mlir-opt
// RUN: %stock_mlir_opt --load-dialect-plugin=%tir_libs/TIRPlugin.so %tir_src_root/examples/matmul.mlir | FileCheck %s
// RUN: %stock_mlir_opt --load-dialect-plugin=%tir_libs/TIRPlugin.so %tir_src_root/examples/matmul.mlir -mlir-print-op-generic | %stock_mlir_opt --load-dialect-plugin=%tir_libs/TIRPlugin.so | FileCheck %s
// RUN: %stock_mlir_opt --load-dialect-plugin=%tir_libs/TIRPlugin.so --load-pass-plugin=%tir_libs/TIRPlugin.so %tir_src_root/examples/matmul.mlir --pass-pipeline="builtin.module(tir-infer-access-regions)" | FileCheck %s --check-prefix=INFER
// RUN: %stock_mlir_opt --load-dialect-plugin=%tir_libs/TIRPlugin.so --load-pass-plugin=%tir_libs/TIRPlugin.so %tir_src_root/examples/matmul.mlir --pass-pipeline="builtin.module(tir-lower-to-llvm)" | FileCheck %s --check-prefix=LOWER --implicit-check-not=tir.

// LOWER: llvm.func @matmul(
// LOWER: llvm.func @_mlir_ciface_matmul(

// CHECK-LABEL: func.func @matmul
// CHECK-SAME:    (%[[A:.+]]: memref<128x128xf32> {tir.name = "A"}, %[[B:.+]]: memref<128x128xf32> {tir.name = "B"}, %[[C:.+]]: memref<128x128xf32> {tir.name = "C"})
// CHECK:         tir.block "C"(%[[VI:.+]] = spatial(128, %{{.+}}), %[[VJ:.+]] = spatial(128, %{{.+}}), %[[VK:.+]] = reduce(128, %{{.+}})) {
// CHECK-NEXT:      tir.init {
// CHECK:           tir.load %[[A]][%[[VI]], %[[VK]]]

// INFER: tir.block "C"({{.*}}) reads(%{{.+}}[%[[VI:.+]], %[[VK:.+]]], %{{.+}}[%[[VK]], %[[VJ:.+]]] : {{.*}}) writes(%{{.+}}[%[[VI]], %[[VJ]]] : memref<128x128xf32>)
