// RUN: tir-opt %s --tir-set-llvm-target="cpu=skylake-avx512 features=+avx2,+fma" | FileCheck %s
// RUN: tir-opt %s --tir-set-llvm-target="cpu=znver4" | FileCheck %s --check-prefix=CPU
// RUN: tir-opt %s --tir-set-llvm-target | FileCheck %s --check-prefix=NONE
// RUN: tir-opt %s --tir-set-llvm-target="cpu=native" | FileCheck %s --check-prefix=NATIVE

// Every llvm.func, declarations too, records the CPU and its features.
// CHECK-LABEL: llvm.func @f()
// CHECK-SAME:    target_cpu = "skylake-avx512"
// CHECK-SAME:    target_features = #llvm.target_features<["+avx2", "+fma"]>
// CHECK-LABEL: llvm.func @g()
// CHECK-SAME:    target_cpu = "skylake-avx512"

// A CPU alone leaves the features unset.
// CPU-LABEL:   llvm.func @f()
// CPU-SAME:      target_cpu = "znver4"
// CPU-NOT:       target_features

// No options: the functions stay as they are.
// NONE-NOT:    target_cpu
// NONE-NOT:    target_features

// native: this machine's CPU name and features (whatever they are).
// NATIVE-LABEL: llvm.func @f()
// NATIVE-SAME:    target_cpu = "{{[^"]+}}"
// NATIVE-SAME:    target_features = #llvm.target_features<["{{[+-]}}
llvm.func @f() {
  llvm.return
}
llvm.func @g()
