// RUN: tir-opt %s --verify-diagnostics --tir-set-llvm-target="cpu=notacpu"
// RUN: not tir-opt %s --tir-set-llvm-target="cpu=x86-64 features=+avx2,+bogus" 2>&1 | FileCheck %s --check-prefix=FEATURE
// RUN: not tir-opt %s --tir-set-llvm-target="features=avx2" 2>&1 | FileCheck %s --check-prefix=SIGN
// RUN: not tir-opt %s --tir-lower-to-llvm="target-cpu=notacpu target-features=+bogus" 2>&1 | FileCheck %s --check-prefix=PIPELINE

// The CPU and its features are checked against LLVM's target for this
// machine before they are written into the module (LLVM warns, or ends the
// process, only when it generates code for them), as tir's compiler does.

// expected-error@+1 {{unknown CPU 'notacpu' for}}
module {
  llvm.func @f() {
    llvm.return
  }
}

// FEATURE: error: unknown CPU feature '+bogus' for {{.*}} (features are +name or -name; llc -mattr=help lists them)
// SIGN: error: unknown CPU feature 'avx2' for
// PIPELINE: error: unknown CPU 'notacpu' for {{.*}} (llc -mcpu=help lists the known ones)
// PIPELINE-NOT: target-cpu
