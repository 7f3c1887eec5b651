// RUN: tir-opt %s --split-input-file --tir-lower-mma-instructions --verify-diagnostics | FileCheck %s

// A warpgroup product m64n128k16, f16 x f16 -> f32: each operand's
// descriptor is its shared address / 16 (bits 0-13) with the leading
// dimension's byte offset / 16 (the stride between the halves of k: A's
// 520 elements, 1040 bytes -> 65 << 16) and the stride dimension's (8-row
// groups, 128 bytes -> 8 << 32); the thread's 64 accumulators pass in and
// out as the instruction's struct, pinned in their registers; the product
// is fenced, committed and waited for.
// CHECK-LABEL: func.func @wgmma_f16
// CHECK:         %[[A_BITS:.*]] = arith.constant 34363998208 : i64
// CHECK:         arith.ori %{{.*}}, %[[A_BITS]] : i64
// CHECK:         %[[B_BITS:.*]] = arith.constant 34368192512 : i64
// CHECK:         arith.ori %{{.*}}, %[[B_BITS]] : i64
// CHECK:         vector.load %{{.*}}[%{{.*}}] : memref<64xf32>, vector<64xf32>
// CHECK-COUNT-64: llvm.inline_asm has_side_effects "", "=f,0"
// CHECK:         nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:    nvvm.wgmma.fence.aligned
// CHECK-NEXT:    nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %{{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK-NEXT:    nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-COUNT-64: llvm.inline_asm has_side_effects "", "=f,0"
// CHECK:         vector.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<64xf32>, vector<64xf32>
// CHECK-NOT:     tir.call
func.func @wgmma_f16(%a: memref<2x64x8xf16, strided<[520, 8, 1], offset: ?>, #gpu.address_space<workgroup>>,
                     %b: memref<2x128x8xf16, strided<[1032, 8, 1], offset: ?>, #gpu.address_space<workgroup>>,
                     %d: memref<64xf32>) {
  tir.call "call_extern"("tir.ptx_wgmma", "m64n128k16", "fp16", "fp16", "fp32", %a, %b, %d, 0 : i32) : (memref<2x64x8xf16, strided<[520, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<2x128x8xf16, strided<[1032, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<64xf32>) -> ()
  return
}

// -----

// bf16, N = 64: 32 accumulators.
// CHECK-LABEL: func.func @wgmma_bf16
// CHECK: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
func.func @wgmma_bf16(%a: memref<2x64x8xbf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>,
                      %b: memref<2x64x8xbf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>,
                      %d: memref<1x32xf32>) {
  tir.call "call_extern"("tir.ptx_wgmma", "m64n64k16", "bf16", "bf16", "fp32", %a, %b, %d, 0 : i32) : (memref<2x64x8xbf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<2x64x8xbf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<1x32xf32>) -> ()
  return
}

// -----

// Rows of 8 elements not packed (a stride of 16): no core-matrix layout.
func.func @wgmma_unpacked_rows(%a: memref<2x64x8xf16, strided<[1024, 16, 1], offset: ?>, #gpu.address_space<workgroup>>,
                               %b: memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>,
                               %d: memref<32xf32>) {
  // expected-error @+1 {{instruction 'tir.ptx_wgmma' reads A from shared memory laid out (k / 8, m, k % 8) for wgmma's K-major layout without swizzling: a 2 x 64 x 8 tile of 'f16' in workgroup memory starting at a multiple of 16 bytes, rows of 8 elements packed, the two halves of k a multiple of 16 bytes apart; not 'memref<2x64x8xf16, strided<[1024, 16, 1], offset: ?>, #gpu.address_space<workgroup>>'}}
  tir.call "call_extern"("tir.ptx_wgmma", "m64n64k16", "fp16", "fp16", "fp32", %a, %b, %d, 0 : i32) : (memref<2x64x8xf16, strided<[1024, 16, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<32xf32>) -> ()
  return
}

// -----

// B in global memory: the instruction reads shared memory only.
func.func @wgmma_global_b(%a: memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>,
                          %b: memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>>,
                          %d: memref<32xf32>) {
  // expected-error @+1 {{instruction 'tir.ptx_wgmma' reads B from shared memory laid out (k / 8, n, k % 8)}}
  tir.call "call_extern"("tir.ptx_wgmma", "m64n64k16", "fp16", "fp16", "fp32", %a, %b, %d, 0 : i32) : (memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>>, memref<32xf32>) -> ()
  return
}

// -----

func.func @wgmma_bad_shape(%a: memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>,
                           %d: memref<6xf32>) {
  // expected-error @+1 {{instruction 'tir.ptx_wgmma' has no form m64n12k16 with fp16 x fp16 -> fp32 (m64nNk16, N a multiple of 8 up to 256, fp16 x fp16 or bf16 x bf16 -> fp32)}}
  tir.call "call_extern"("tir.ptx_wgmma", "m64n12k16", "fp16", "fp16", "fp32", %a, %a, %d, 0 : i32) : (memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<6xf32>) -> ()
  return
}

// -----

// The accumulators must be the thread's N / 2 floats (a warpgroup buffer
// divided among its threads first).
func.func @wgmma_whole_fragment(%a: memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>,
                                %d: memref<128x32xf32>) {
  // expected-error @+1 {{instruction 'tir.ptx_wgmma' needs D as the lane's fragment, 32 'f32' elements in a row: the buffer has 4096 elements}}
  tir.call "call_extern"("tir.ptx_wgmma", "m64n64k16", "fp16", "fp16", "fp32", %a, %a, %d, 0 : i32) : (memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<128x32xf32>) -> ()
  return
}

// -----

// A tile starting 4 elements (8 bytes) into shared memory: descriptors
// address 16-byte units.
func.func @wgmma_misaligned(%a: memref<2x64x8xf16, strided<[512, 8, 1], offset: 4>, #gpu.address_space<workgroup>>,
                            %b: memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>,
                            %d: memref<32xf32>) {
  // expected-error @+1 {{instruction 'tir.ptx_wgmma' reads A from shared memory laid out (k / 8, m, k % 8) for wgmma's K-major layout without swizzling: a 2 x 64 x 8 tile of 'f16' in workgroup memory starting at a multiple of 16 bytes}}
  tir.call "call_extern"("tir.ptx_wgmma", "m64n64k16", "fp16", "fp16", "fp32", %a, %b, %d, 0 : i32) : (memref<2x64x8xf16, strided<[512, 8, 1], offset: 4>, #gpu.address_space<workgroup>>, memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<32xf32>) -> ()
  return
}

// -----

func.func @wgmma_part_of_the_accumulators(%a: memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>,
                                          %d: memref<32xf32>) {
  // expected-error @+1 {{instruction 'tir.ptx_wgmma' takes all of the thread's N / 2 accumulators: D's start is 0}}
  tir.call "call_extern"("tir.ptx_wgmma", "m64n64k16", "fp16", "fp16", "fp32", %a, %a, %d, 4 : i32) : (memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<2x64x8xf16, strided<[512, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<32xf32>) -> ()
  return
}
