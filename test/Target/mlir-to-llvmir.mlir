// tir-translate turns lowered input into LLVM IR that llc compiles; tir
// input parses, and an op without a translation is named.
// RUN: tir-translate --mlir-to-llvmir %s | FileCheck %s
// RUN: tir-translate --mlir-to-llvmir %s | llc -O2 -o /dev/null
// RUN: not tir-translate --mlir-to-llvmir %tir_src_root/examples/vector_add.mlir 2>&1 | FileCheck %s --check-prefix=TIR

// CHECK-LABEL: define float @add_one(float %0)
// CHECK-NEXT:    %[[R:.+]] = fadd float %0, 1.000000e+00
// CHECK-NEXT:    ret float %[[R]]
llvm.func @add_one(%x: f32) -> f32 {
  %one = llvm.mlir.constant(1.0 : f32) : f32
  %r = llvm.fadd %x, %one : f32
  llvm.return %r : f32
}

// TIR: error: cannot be converted to LLVM IR: missing `LLVMTranslationDialectInterface` registration for dialect for op: func.func
