// RUN: tir-opt %s --split-input-file --tir-lower-async-copies --verify-diagnostics | FileCheck %s
// RUN: tir-opt %s --split-input-file --tir-lower-async-copies --verify-diagnostics \
// RUN:   --convert-nvgpu-to-nvvm | FileCheck %s --check-prefix=NVVM

// Eight f16 at 16-byte aligned addresses (the global buffer aligned to 16,
// the launch's workgroup buffer at 16 too, the column a multiple of 8,
// rows of 64 elements): one 16-byte cp.async, bypassing L1.
// CHECK-LABEL: func.func @vector_aligned
// CHECK:         nvgpu.device_async_copy %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], 8 {bypassL1}
// CHECK-NOT:     vector.load
// CHECK-NOT:     vector.store
// NVVM-LABEL: func.func @vector_aligned
// NVVM:         nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg
func.func @vector_aligned(%g: memref<64x64xf16>, %i: index, %j: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%s : memref<16x64xf16, #gpu.address_space<workgroup>>) {
    %c8 = arith.constant 8 : index
    %col = arith.muli %j, %c8 : index
    %ga = memref.assume_alignment %g, 16 : memref<64x64xf16>
    %v = vector.load %ga[%i, %col] : memref<64x64xf16>, vector<8xf16>
    vector.store %v, %s[%i, %col] {tir.async_copy} : memref<16x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    gpu.terminator
  }
  return
}

// -----

// Only 4-byte alignment known (the column a multiple of 2): four 4-byte
// copies, each through L1.
// CHECK-LABEL: func.func @vector_in_pieces
// CHECK-COUNT-4: nvgpu.device_async_copy %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], 2 :
// CHECK-NOT:     vector.store
// NVVM-LABEL: func.func @vector_in_pieces
// NVVM-COUNT-4: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca
func.func @vector_in_pieces(%g: memref<64x64xf16>, %i: index, %j: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%s : memref<16x64xf16, #gpu.address_space<workgroup>>) {
    %c2 = arith.constant 2 : index
    %col = arith.muli %j, %c2 : index
    %ga = memref.assume_alignment %g, 16 : memref<64x64xf16>
    %v = vector.load %ga[%i, %col] : memref<64x64xf16>, vector<8xf16>
    vector.store %v, %s[%i, %col] {tir.async_copy} : memref<16x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    gpu.terminator
  }
  return
}

// -----

// Nothing known of the column: a 2-byte alignment, too little for cp.async;
// the copy stays a load and a store (unmarked).
// CHECK-LABEL: func.func @unaligned_stays
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         %[[V:.*]] = vector.load
// CHECK:         vector.store %[[V]], %{{.*}}[%{{.*}}, %{{.*}}] : memref
func.func @unaligned_stays(%g: memref<64x64xf16>, %i: index, %j: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%s : memref<16x64xf16, #gpu.address_space<workgroup>>) {
    %ga = memref.assume_alignment %g, 16 : memref<64x64xf16>
    %v = vector.load %ga[%i, %j] : memref<64x64xf16>, vector<8xf16>
    vector.store %v, %s[%i, %j] {tir.async_copy} : memref<16x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    gpu.terminator
  }
  return
}

// -----

// A scalar f32: one 4-byte copy. Commit and wait become NVVM's.
// CHECK-LABEL: func.func @scalar_and_groups
// CHECK:         nvgpu.device_async_copy %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], 1 :
// CHECK:         nvvm.cp.async.commit.group
// CHECK:         nvvm.cp.async.wait.group 1
// CHECK-NOT:     tir.call
func.func @scalar_and_groups(%g: memref<64xf32>, %s: memref<64xf32, #gpu.address_space<workgroup>>, %i: index) {
  %x = memref.load %g[%i] : memref<64xf32>
  memref.store %x, %s[%i] {tir.async_copy} : memref<64xf32, #gpu.address_space<workgroup>>
  tir.call "call_extern"("tir.ptx_commit_group") : () -> ()
  tir.call "call_extern"("tir.ptx_wait_group", 1 : i32) : () -> ()
  return
}

// -----

// A store into a thread's own memory is no copy into shared memory.
// CHECK-LABEL: func.func @not_shared
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         memref.store
func.func @not_shared(%g: memref<64xf32>, %s: memref<64xf32>, %i: index) {
  %x = memref.load %g[%i] : memref<64xf32>
  memref.store %x, %s[%i] {tir.async_copy} : memref<64xf32>
  return
}

// -----

func.func @wait_count(%n: i32) {
  // expected-error @+1 {{instruction 'tir.ptx_wait_group' takes the number of groups that may stay pending (a non-negative integer literal)}}
  tir.call "call_extern"("tir.ptx_wait_group", %n) : (i32) -> ()
  return
}
