// RUN: tir-opt %s --split-input-file --tir-lower-mma-instructions --tir-batch-warpgroup-products | FileCheck %s

// Two products one after another on the same accumulators (a k tile's, its
// loop unrolled): issued back to back, each committed, one wait after the
// last; the accumulators go from one to the next without pins (the second
// product's fences, the first one's wait and the pins between them go).
// CHECK-LABEL: func.func @back_to_back
// CHECK-COUNT-32: llvm.inline_asm has_side_effects "", "=f,0"
// CHECK:         nvvm.fence.proxy
// CHECK-NEXT:    nvvm.wgmma.fence.aligned
// CHECK-NEXT:    nvvm.wgmma.mma_async
// CHECK-NEXT:    nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT:     llvm.inline_asm
// CHECK-NOT:     nvvm.wgmma.fence.aligned
// CHECK-NOT:     nvvm.wgmma.wait.group.sync.aligned
// CHECK:         nvvm.wgmma.mma_async
// CHECK-NEXT:    nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-COUNT-32: llvm.inline_asm has_side_effects "", "=f,0"
// CHECK-NOT:     nvvm.wgmma
func.func @back_to_back(%a: memref<4x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>,
                        %b: memref<4x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>,
                        %d: memref<32xf32>) {
  %a0 = memref.subview %a[0, 0, 0] [2, 64, 8] [1, 1, 1] : memref<4x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>> to memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>
  %b0 = memref.subview %b[0, 0, 0] [2, 64, 8] [1, 1, 1] : memref<4x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>> to memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>
  tir.call "call_extern"("tir.ptx_wgmma", "m64n64k16", "fp16", "fp16", "fp32", %a0, %b0, %d, 0 : i32) : (memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<32xf32>) -> ()
  %a1 = memref.subview %a[2, 0, 0] [2, 64, 8] [1, 1, 1] : memref<4x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>> to memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>
  %b1 = memref.subview %b[2, 0, 0] [2, 64, 8] [1, 1, 1] : memref<4x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>> to memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>
  tir.call "call_extern"("tir.ptx_wgmma", "m64n64k16", "fp16", "fp16", "fp32", %a1, %b1, %d, 0 : i32) : (memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<32xf32>) -> ()
  return
}

// -----

// A barrier between two products keeps them apart: each is fenced and
// waited for.
// CHECK-LABEL: func.func @barrier_between
// CHECK-COUNT-2: nvvm.wgmma.wait.group.sync.aligned 0
func.func @barrier_between(%a: memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>,
                           %d: memref<32xf32>) {
  tir.call "call_extern"("tir.ptx_wgmma", "m64n64k16", "fp16", "fp16", "fp32", %a, %a, %d, 0 : i32) : (memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<32xf32>) -> ()
  gpu.barrier
  tir.call "call_extern"("tir.ptx_wgmma", "m64n64k16", "fp16", "fp16", "fp32", %a, %a, %d, 0 : i32) : (memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<32xf32>) -> ()
  return
}

// -----

// The accumulators read in between (stored elsewhere, or rescaled): they
// must have landed, so the first product is waited for.
// CHECK-LABEL: func.func @read_between
// CHECK-COUNT-2: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-LABEL: func.func @rescaled_between
// CHECK-COUNT-2: nvvm.wgmma.wait.group.sync.aligned 0
func.func @read_between(%a: memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>,
                        %d: memref<32xf32>, %out: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  tir.call "call_extern"("tir.ptx_wgmma", "m64n64k16", "fp16", "fp16", "fp32", %a, %a, %d, 0 : i32) : (memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<32xf32>) -> ()
  %v = vector.load %d[%c0] : memref<32xf32>, vector<32xf32>
  vector.store %v, %out[%c0] : memref<32xf32>, vector<32xf32>
  tir.call "call_extern"("tir.ptx_wgmma", "m64n64k16", "fp16", "fp16", "fp32", %a, %a, %d, 0 : i32) : (memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<32xf32>) -> ()
  return
}
func.func @rescaled_between(%a: memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>,
                            %d: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  tir.call "call_extern"("tir.ptx_wgmma", "m64n64k16", "fp16", "fp16", "fp32", %a, %a, %d, 0 : i32) : (memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<32xf32>) -> ()
  %x = memref.load %d[%c0] : memref<32xf32>
  %y = arith.mulf %x, %x : f32
  memref.store %y, %d[%c0] : memref<32xf32>
  tir.call "call_extern"("tir.ptx_wgmma", "m64n64k16", "fp16", "fp16", "fp32", %a, %a, %d, 0 : i32) : (memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<32xf32>) -> ()
  return
}

// -----

// Products on different accumulators: each keeps its fences and wait.
// CHECK-LABEL: func.func @other_accumulators
// CHECK-COUNT-2: nvvm.wgmma.fence.aligned
func.func @other_accumulators(%a: memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>,
                              %d: memref<32xf32>, %e: memref<32xf32>) {
  tir.call "call_extern"("tir.ptx_wgmma", "m64n64k16", "fp16", "fp16", "fp32", %a, %a, %d, 0 : i32) : (memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<32xf32>) -> ()
  tir.call "call_extern"("tir.ptx_wgmma", "m64n64k16", "fp16", "fp16", "fp32", %a, %a, %e, 0 : i32) : (memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<32xf32>) -> ()
  return
}
