// RUN: tir-opt %s --tir-lower-instructions --split-input-file -verify-diagnostics | FileCheck %s

// The f32 FMA micro-kernel: the views are loaded as vectors, A's element
// broadcast, one vector.fma, C stored back. Offset operands are not used.
// CHECK-LABEL: func.func @fma
// CHECK:         %[[C:.+]] = vector.load %arg0[%{{.+}}] : memref<16xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK:         %[[A:.+]] = vector.load %arg1[%{{.+}}] : memref<1xf32, strided<[1], offset: ?>>, vector<1xf32>
// CHECK:         %[[B:.+]] = vector.load %arg2[%{{.+}}] : memref<16xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK:         %[[S:.+]] = vector.extract %[[A]][0]
// CHECK:         %[[SPLAT:.+]] = vector.broadcast %[[S]] : f32 to vector<16xf32>
// CHECK:         %[[R:.+]] = vector.fma %[[SPLAT]], %[[B]], %[[C]] : vector<16xf32>
// CHECK:         vector.store %[[R]], %arg0[%{{.+}}]
// CHECK-NOT:     tir.call
func.func @fma(%C: memref<16xf32, strided<[1], offset: ?>>, %A: memref<1xf32, strided<[1], offset: ?>>, %B: memref<16xf32, strided<[1], offset: ?>>, %off: index) {
  tir.call "call_extern"("llvm.fma.v16f32", %C, %off, %A, %off, %B, %off) : (memref<16xf32, strided<[1], offset: ?>>, index, memref<1xf32, strided<[1], offset: ?>>, index, memref<16xf32, strided<[1], offset: ?>>, index) -> ()
  return
}

// -----

// VNNI: B's 16x4 tile is collapsed to 64 bytes; A's 4 bytes are repeated
// in each lane; the instruction is called by its LLVM name.
// CHECK-LABEL: func.func @vnni
// CHECK:         %[[C:.+]] = vector.load %arg0{{.*}} vector<16xi32>
// CHECK:         %[[A:.+]] = vector.load %arg1{{.*}} vector<4xi8>
// CHECK:         %[[FLAT:.+]] = memref.collapse_shape %arg2 {{\[\[}}0, 1]]
// CHECK:         %[[B:.+]] = vector.load %[[FLAT]]{{.*}} vector<64xi8>
// CHECK:         %[[W:.+]] = vector.bitcast %[[A]] : vector<4xi8> to vector<1xi32>
// CHECK:         %[[BYTES:.+]] = vector.bitcast %{{.+}} : vector<16xi32> to vector<64xi8>
// CHECK:         %[[R:.+]] = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%[[C]], %[[BYTES]], %[[B]]) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// CHECK:         vector.store %[[R]], %arg0
func.func @vnni(%C: memref<16xi32>, %A: memref<4xi8>, %B: memref<16x4xi8, strided<[4, 1], offset: ?>>, %off: index) {
  tir.call "call_extern"("llvm.x86.avx512.vpdpbusd.512", %C, %off, %A, %off, %B, %off) : (memref<16xi32>, index, memref<4xi8>, index, memref<16x4xi8, strided<[4, 1], offset: ?>>, index) -> ()
  return
}

// -----

// The same dot product in portable vector code: widened products, and
// each lane's four gathered by shuffles and added to C.
// CHECK-LABEL: func.func @portable
// CHECK:         %[[P:.+]] = arith.muli %{{.+}}, %{{.+}} : vector<64xi32>
// CHECK-COUNT-4: vector.shuffle %[[P]], %[[P]]
// CHECK-NOT:     llvm.call_intrinsic
func.func @portable(%C: memref<16xi32>, %A: memref<4xi8>, %B: memref<16x4xi8>, %off: index) {
  tir.call "call_extern"("tir.avx512_dot_16x4", %C, %off, %A, %off, %B, %off) : (memref<16xi32>, index, memref<4xi8>, index, memref<16x4xi8>, index) -> ()
  return
}

// -----

func.func @strided(%C: memref<16xi32>, %A: memref<4xi8>, %B: memref<16x4xi8, strided<[8, 1], offset: ?>>, %off: index) {
  // expected-error @below {{instruction 'tir.avx512_dot_16x4' needs B as 64 contiguous 'i8' elements: its elements are not contiguous}}
  tir.call "call_extern"("tir.avx512_dot_16x4", %C, %off, %A, %off, %B, %off) : (memref<16xi32>, index, memref<4xi8>, index, memref<16x4xi8, strided<[8, 1], offset: ?>>, index) -> ()
  return
}

// -----

func.func @unknown(%C: memref<16xi32>) {
  // expected-error @below {{calls external function 'vec4add', which tir cannot call on the CPU}}
  tir.call "call_extern"("vec4add", %C) : (memref<16xi32>) -> ()
  return
}
