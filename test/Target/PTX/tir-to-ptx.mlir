// RUN: tir-translate --tir-to-ptx %s | FileCheck %s
// RUN: tir-translate --tir-to-ptx --cuda-chip=sm_90 %s | FileCheck %s --check-prefix=SM90
// RUN: tir-opt %s --tir-lower-to-nvvm | FileCheck %s --check-prefix=NVVM

// One kernel from the thread-bound loops: an .entry whose index is
// blockIdx.x * 128 + threadIdx.x, guarded by the block's predicate.
// CHECK:       .target sm_80
// CHECK:       .visible .entry vadd_kernel(
// CHECK:       .maxntid 128, 1, 1
// CHECK-DAG:   mov.u32 {{.*}}%ctaid.x;
// CHECK-DAG:   mov.u32 {{.*}}%tid.x;
// CHECK:       setp.{{.*}}
// CHECK:       add{{(.rn)?}}.f32
// SM90:        .target sm_90
// The host side keeps the launch: grid 8, block 128.
// NVVM:        gpu.launch_func  @vadd_kernel::@vadd_kernel blocks in (%c8, %c1, %c1) threads in (%c128, %c1, %c1)
// NVVM:        gpu.binary @vadd_kernel [#gpu.object<#nvvm.target<chip = "sm_80"
func.func @vadd(%A: memref<1000xf32> {tir.name = "A"}, %B: memref<1000xf32> {tir.name = "B"}, %C: memref<1000xf32> {tir.name = "C"}) {
  tir.for %bx = 0 to 8 thread_binding<"blockIdx.x"> {
    tir.for %tx = 0 to 128 thread_binding<"threadIdx.x"> {
      tir.block "C"(%vi = spatial(1000, %bx * 128 + %tx)) where(%bx * 128 + %tx < 1000) {
        %a = tir.load %A[%vi] : memref<1000xf32>
        %b = tir.load %B[%vi] : memref<1000xf32>
        %s = arith.addf %a, %b : f32
        tir.store %s, %C[%vi] : memref<1000xf32>
      }
    }
  }
  return
}
