// RUN: tir-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(tir-require-ptx-version))' | FileCheck %s

// mma.sync on 8-bit floats is PTX 8.4's: the target's features say so.
// CHECK-LABEL: gpu.module @float8
// CHECK-SAME: #nvvm.target<chip = "sm_90", features = "+ptx84">
gpu.module @float8 [#nvvm.target<chip = "sm_90">] {
  llvm.func @k(%a: i32, %c: f32) -> f32 {
    %d = llvm.inline_asm "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f" %a, %a, %a, %a, %a, %a, %c, %c, %c, %c : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    %x = llvm.extractvalue %d[0] : !llvm.struct<(f32, f32, f32, f32)>
    llvm.return %x : f32
  }
}

// -----

// Nothing newer, or a version given: the target stays.
// CHECK-LABEL: gpu.module @plain
// CHECK-SAME: #nvvm.target<chip = "sm_90">]
gpu.module @plain [#nvvm.target<chip = "sm_90">] {
}

// -----

// CHECK-LABEL: gpu.module @given
// CHECK-SAME: features = "+ptx80"
gpu.module @given [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
  llvm.func @k(%a: i32, %c: f32) -> f32 {
    %d = llvm.inline_asm "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f" %a, %a, %a, %a, %a, %a, %c, %c, %c, %c : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
    %x = llvm.extractvalue %d[0] : !llvm.struct<(f32, f32, f32, f32)>
    llvm.return %x : f32
  }
}
