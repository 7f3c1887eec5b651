// tir-translate turns lowered input into LLVM IR that llc compiles, and
// runs tir input through tir-lower-to-llvm first (see tir-to-llvmir.test).
// RUN: tir-translate --mlir-to-llvmir %s | FileCheck %s
// RUN: tir-translate --mlir-to-llvmir %s | llc -O2 -o /dev/null

// CHECK-LABEL: define float @add_one(float %0)
// CHECK-NEXT:    %[[R:.+]] = fadd float %0, 1.000000e+00
// CHECK-NEXT:    ret float %[[R]]
llvm.func @add_one(%x: f32) -> f32 {
  %one = llvm.mlir.constant(1.0 : f32) : f32
  %r = llvm.fadd %x, %one : f32
  llvm.return %r : f32
}
