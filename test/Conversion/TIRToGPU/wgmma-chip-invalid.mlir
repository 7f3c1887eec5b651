// RUN: tir-opt %s --convert-tir-to-gpu=chip=sm_90 --split-input-file --verify-diagnostics
// RUN: tir-opt %s --convert-tir-to-gpu=chip=sm_90a --split-input-file | FileCheck %s

// Warpgroup products are sm_90a's (Hopper's architecture-specific
// instructions): plain sm_90 is refused, naming the call and the chip.
// CHECK: gpu.launch
// CHECK: tir.call "call_extern"("tir.ptx_wgmma"
func.func @wgmma_on_sm90(%A: memref<2x64x8xf16, "shared">, %D: memref<32xf32, "local">) {
  tir.for %b = 0 to 1 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 128 thread_binding<"threadIdx.x"> {
      // expected-error @+1 {{calls 'tir.ptx_wgmma', a warpgroup tensor-core instruction (wgmma.mma_async), which needs sm_90a (Hopper's architecture-specific features: -arch=sm_90a), not sm_90}}
      tir.call "call_extern"("tir.ptx_wgmma", "m64n64k16", "fp16", "fp16", "fp32", %A, %A, %D, 0 : i32) : (memref<2x64x8xf16, "shared">, memref<2x64x8xf16, "shared">, memref<32xf32, "local">) -> ()
    }
  }
  return
}
