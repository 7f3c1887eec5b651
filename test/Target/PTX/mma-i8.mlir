// REQUIRES: ptxas
// RUN: tir-translate --tir-to-ptx %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_80 %t.ptx -o %t.cubin
// RUN: tir-translate --tir-to-ptx --cuda-chip=sm_90 %s -o %t90.ptx
// RUN: %ptxas -arch=sm_90 %t90.ptx -o %t90.cubin

// The instructions of mma.sync's intrinsics in a kernel of one warp, on
// the lanes' fragments: A's 16 x 32 int8 tile and B's, stored transposed
// (16 x 32), from shared memory (rows 48 bytes apart) by ldmatrix, then the
// 16 x 16 product as two m16n8k32 products (nvgpu's lowering saturates
// the int32 sums: .satfinite).
// CHECK-COUNT-2: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-COUNT-2: mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32
// CHECK-NOT: .local
func.func @mma_tile(%a: memref<16x16xi8>, %b: memref<16x16xi8>, %c: memref<16x16xi32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1)
             workgroup(%sa : memref<16x48xi8, #gpu.address_space<workgroup>>, %sb : memref<16x48xi8, #gpu.address_space<workgroup>>) {
    %fa = memref.alloca() : memref<16xi8>
    %fb = memref.alloca() : memref<16xi8>
    %fc = memref.alloca() : memref<8xi32>
    %ta = memref.subview %sa[0, 0] [16, 32] [1, 1] : memref<16x48xi8, #gpu.address_space<workgroup>> to memref<16x32xi8, strided<[48, 1]>, #gpu.address_space<workgroup>>
    %tb = memref.subview %sb[0, 0] [16, 32] [1, 1] : memref<16x48xi8, #gpu.address_space<workgroup>> to memref<16x32xi8, strided<[48, 1]>, #gpu.address_space<workgroup>>
    %c16 = arith.constant 16 : index
    %c8 = arith.constant 8 : index
    %row = arith.remui %tx, %c16 : index
    %q = arith.divui %tx, %c16 : index
    %col = arith.muli %q, %c16 : index
    tir.call "call_extern"("tir.ptx_ldmatrix", %fa, %ta, %row, %col, 0 : i32) : (memref<16xi8>, memref<16x32xi8, strided<[48, 1]>, #gpu.address_space<workgroup>>, index, index) -> ()
    tir.call "call_extern"("tir.ptx_ldmatrix", %fb, %tb, %row, %col, 0 : i32) : (memref<16xi8>, memref<16x32xi8, strided<[48, 1]>, #gpu.address_space<workgroup>>, index, index) -> ()
    tir.call "call_extern"("tir.ptx_mma", "m16n8k32", "int8", "int8", "int32", %fa, 0 : i32, %fb, 0 : i32, %fc, 0 : i32) : (memref<16xi8>, memref<16xi8>, memref<8xi32>) -> ()
    tir.call "call_extern"("tir.ptx_mma", "m16n8k32", "int8", "int8", "int32", %fa, 0 : i32, %fb, 8 : i32, %fc, 4 : i32) : (memref<16xi8>, memref<16xi8>, memref<8xi32>) -> ()
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %v0 = memref.load %fc[%c0] : memref<8xi32>
    %v4 = memref.load %fc[%c4] : memref<8xi32>
    %v = arith.addi %v0, %v4 : i32
    memref.store %v, %c[%row, %col] : memref<16x16xi32>
    gpu.terminator
  }
  return
}
