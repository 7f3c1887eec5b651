// RUN: tir-opt %s --split-input-file --tir-lower-mma-instructions --verify-diagnostics | FileCheck %s
// RUN: tir-opt %s --split-input-file --tir-lower-mma-instructions --verify-diagnostics \
// RUN:   --canonicalize --expand-strided-metadata --convert-nvgpu-to-nvvm \
// RUN:   | FileCheck %s --check-prefix=NVVM

// A lane's ldmatrix: four 8 x 8 tiles of f16 whose rows start at
// (row, col) of the shared tile, into the lane's 8 registers, in order.
// CHECK-LABEL: func.func @ldmatrix_f16
// CHECK: %[[V:.*]] = nvgpu.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}] {numTiles = 4 : i32, transpose = true} : memref<16x16xf16, strided<[40, 1], offset: ?>, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK-COUNT-4: vector.extract %[[V]][{{[0-3]}}] : vector<2xf16> from vector<4x2xf16>
// CHECK-NOT: tir.call
// NVVM-LABEL: func.func @ldmatrix_f16
// NVVM: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 4 : i32
func.func @ldmatrix_f16(%shared: memref<16x16xf16, strided<[40, 1], offset: ?>, #gpu.address_space<workgroup>>,
                        %row: i32, %col: i32) -> memref<8xf16> {
  %frag = memref.alloca() : memref<8xf16>
  tir.call "call_extern"("tir.ptx_ldmatrix", %frag, %shared, %row, %col, 1 : i32) : (memref<8xf16>, memref<16x16xf16, strided<[40, 1], offset: ?>, #gpu.address_space<workgroup>>, i32, i32) -> ()
  return %frag : memref<8xf16>
}

// -----

// Two m16n8k16 products make a 16 x 16 tile: A's whole fragment, half of
// B's and half of C's each.
// CHECK-LABEL: func.func @mma_f16f16f32
// CHECK-COUNT-6: vector.load %{{.*}} : memref<8xf16>, vector<2xf16>
// CHECK-COUNT-2: vector.load %{{.*}} : memref<8xf32>, vector<2xf32>
// CHECK: %[[D:.*]] = nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-COUNT-2: vector.extract %[[D]][{{[01]}}] : vector<2xf32> from vector<2x2xf32>
// CHECK: nvgpu.mma.sync
// CHECK-NOT: tir.call
// NVVM-LABEL: func.func @mma_f16f16f32
// NVVM-COUNT-2: nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}
func.func @mma_f16f16f32(%a: memref<8xf16>, %b: memref<8xf16>, %c: memref<1x8xf32>) {
  tir.call "call_extern"("tir.ptx_mma", "m16n8k16", "fp16", "fp16", "fp32", %a, 0 : i32, %b, 0 : i32, %c, 0 : i32) : (memref<8xf16>, memref<8xf16>, memref<1x8xf32>) -> ()
  tir.call "call_extern"("tir.ptx_mma", "m16n8k16", "fp16", "fp16", "fp32", %a, 0 : i32, %b, 4 : i32, %c, 4 : i32) : (memref<8xf16>, memref<8xf16>, memref<1x8xf32>) -> ()
  return
}

// -----

// int8: m16n8k32, four registers of four bytes for A.
// CHECK-LABEL: func.func @mma_i8i8i32
// CHECK: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 32]} : (vector<4x4xi8>, vector<2x4xi8>, vector<2x2xi32>) -> vector<2x2xi32>
func.func @mma_i8i8i32(%a: memref<16xi8>, %b: memref<16xi8>, %c: memref<8xi32>) {
  tir.call "call_extern"("tir.ptx_mma", "m16n8k32", "int8", "int8", "int32", %a, 0 : i32, %b, 8 : i32, %c, 4 : i32) : (memref<16xi8>, memref<16xi8>, memref<8xi32>) -> ()
  return
}

// -----

// WMMA's int8 16 x 16 x 16: m16n8k16 with A's 8 bytes, B's 4; B stored
// k x n read by each lane (element l: B[4 (lane mod 4) + l mod 4,
// lane div 4 + 8 (l div 4)]).
// CHECK-LABEL: func.func @wmma_i8
// CHECK-COUNT-8: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<16x16xi8, #gpu.address_space<workgroup>>
// CHECK: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 16]} : (vector<2x4xi8>, vector<1x4xi8>, vector<2x2xi32>) -> vector<2x2xi32>
// NVVM-LABEL: func.func @wmma_i8
// NVVM: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
func.func @wmma_i8(%b: memref<16x16xi8, #gpu.address_space<workgroup>>, %lane: index, %af: memref<8xi8>, %bf: memref<8xi8>, %c: memref<8xi32>) {
  tir.call "call_extern"("tir.ptx_fragment_load_b8", %bf, %b, %lane) : (memref<8xi8>, memref<16x16xi8, #gpu.address_space<workgroup>>, index) -> ()
  tir.call "call_extern"("tir.ptx_mma", "m16n8k16", "int8", "int8", "int32", %af, 0 : i32, %bf, 4 : i32, %c, 4 : i32) : (memref<8xi8>, memref<8xi8>, memref<8xi32>) -> ()
  return
}

// -----

// A warp buffer not yet divided among the lanes.
func.func @whole_warp_fragment(%a: memref<32x8xf16>, %b: memref<8xf16>, %c: memref<8xf32>) {
  // expected-error @+1 {{instruction 'tir.ptx_mma' needs A as the lane's fragment, 8 'f16' elements in a row: the buffer has 256 elements (a warp buffer must be divided among the lanes first)}}
  tir.call "call_extern"("tir.ptx_mma", "m16n8k16", "fp16", "fp16", "fp32", %a, 0 : i32, %b, 0 : i32, %c, 0 : i32) : (memref<32x8xf16>, memref<8xf16>, memref<8xf32>) -> ()
  return
}

// -----

func.func @no_such_form(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>) {
  // expected-error @+1 {{instruction 'tir.ptx_mma' has no form m16n8k8 with fp32 x fp32 -> fp32}}
  tir.call "call_extern"("tir.ptx_mma", "m16n8k8", "fp32", "fp32", "fp32", %a, 0 : i32, %b, 0 : i32, %c, 0 : i32) : (memref<8xf32>, memref<8xf32>, memref<8xf32>) -> ()
  return
}

// -----

func.func @ldmatrix_from_global(%shared: memref<16x16xf16>, %frag: memref<8xf16>, %i: index) {
  // expected-error @+1 {{instruction 'tir.ptx_ldmatrix' reads shared memory (a buffer in the GPU's workgroup memory), not 'memref<16x16xf16>'}}
  tir.call "call_extern"("tir.ptx_ldmatrix", %frag, %shared, %i, %i, 0 : i32) : (memref<8xf16>, memref<16x16xf16>, index, index) -> ()
  return
}

// -----

func.func @ldmatrix_transposed_bytes(%shared: memref<16x32xi8, #gpu.address_space<workgroup>>, %frag: memref<16xi8>, %i: index) {
  // expected-error @+1 {{instruction 'tir.ptx_ldmatrix' cannot transpose 8-bit elements}}
  tir.call "call_extern"("tir.ptx_ldmatrix", %frag, %shared, %i, %i, 1 : i32) : (memref<16xi8>, memref<16x32xi8, #gpu.address_space<workgroup>>, index, index) -> ()
  return
}

// -----

// Rows 40 bytes apart: ldmatrix's row addresses would not all be 16-byte
// aligned.
func.func @ldmatrix_misaligned_rows(%shared: memref<16x32xi8, strided<[40, 1], offset: ?>, #gpu.address_space<workgroup>>, %frag: memref<16xi8>, %i: index) {
  // expected-error @+1 {{instruction 'tir.ptx_ldmatrix' needs the tile's rows 16-byte aligned: a static row stride that is a multiple of 16 bytes and contiguous rows}}
  tir.call "call_extern"("tir.ptx_ldmatrix", %frag, %shared, %i, %i, 0 : i32) : (memref<16xi8>, memref<16x32xi8, strided<[40, 1], offset: ?>, #gpu.address_space<workgroup>>, index, index) -> ()
  return
}

// -----

// bf16 x bf16 -> f32 (nvgpu's mma.sync takes no bf16): NVVM's mma.sync on
// the rows as 32-bit registers, the four floats back into C's fragment.
// CHECK-LABEL: func.func @mma_bf16bf16f32
// CHECK-COUNT-4: vector.bitcast %{{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: vector.from_elements {{.*}} : vector<2x2xf32>
// CHECK-NOT: tir.call
func.func @mma_bf16bf16f32(%a: memref<8xbf16>, %b: memref<8xbf16>, %c: memref<8xf32>) {
  tir.call "call_extern"("tir.ptx_mma", "m16n8k16", "bf16", "bf16", "fp32", %a, 0 : i32, %b, 0 : i32, %c, 0 : i32) : (memref<8xbf16>, memref<8xbf16>, memref<8xf32>) -> ()
  return
}

// -----

// 8-bit floats (nvgpu takes none): ldmatrix by NVVM at the row's address in
// shared memory, each register seen as four elements; m16n8k32 e4m3 x
// e4m3 -> f32 as the PTX instruction (NVVM's mma.sync takes no 8-bit
// floats), on the rows as 32-bit registers.
// CHECK-LABEL: func.func @float8
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-COUNT-4: vector.bitcast %{{.*}} : vector<1xi32> to vector<4xf8E4M3FN>
// CHECK: llvm.inline_asm "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"
// CHECK-NOT: tir.call
func.func @float8(%shared: memref<16x32xf8E4M3FN, strided<[48, 1], offset: ?>, #gpu.address_space<workgroup>>,
                  %row: i32, %col: i32, %b: memref<16xf8E4M3FN>, %c: memref<8xf32>) {
  %a = memref.alloca() : memref<16xf8E4M3FN>
  tir.call "call_extern"("tir.ptx_ldmatrix", %a, %shared, %row, %col, 0 : i32) : (memref<16xf8E4M3FN>, memref<16x32xf8E4M3FN, strided<[48, 1], offset: ?>, #gpu.address_space<workgroup>>, i32, i32) -> ()
  tir.call "call_extern"("tir.ptx_mma", "m16n8k32", "e4m3", "e4m3", "fp32", %a, 0 : i32, %b, 0 : i32, %c, 0 : i32) : (memref<16xf8E4M3FN>, memref<16xf8E4M3FN>, memref<8xf32>) -> ()
  return
}
