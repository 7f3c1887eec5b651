// RUN: tir-opt %tir_src_root/examples/gpu/matmul_pipelined.mlir --convert-tir-to-gpu | FileCheck %s
// RUN: tir-opt %s --convert-tir-to-gpu --split-input-file -verify-diagnostics
// RUN: not tir-opt %s --convert-tir-to-gpu --split-input-file 2>&1 | FileCheck %s --check-prefix=TILE

// The pipelined GEMM (128 k steps, copies in stage 0, update in stage 1):
// each shared tile gets two copies (four workgroup buffers); the
// prologue copies tile 0 into copy 0; the steady loop, unrolled by two,
// copies tile k + 1 into one copy while the update reads the other, with
// one barrier per step (before the copies overwrite what the previous
// update read) and none between a step's copies and its update; the last
// step (127 = 1 + 63 * 2 + 1) and the epilogue are written out.
// CHECK:       gpu.launch
// CHECK-SAME:    workgroup(%[[B0:.+]] : memref<8x128xf32, #gpu.address_space<workgroup>>, %[[B1:.+]] : memref<8x128xf32, #gpu.address_space<workgroup>>, %[[A0:.+]] : memref<128x8xf32, #gpu.address_space<workgroup>>, %[[A1:.+]] : memref<128x8xf32, #gpu.address_space<workgroup>>)
// CHECK:         tir.block "C_init"
// CHECK:         memref.reinterpret_cast %[[A0]]
// CHECK:         tir.block "A_shared"
// CHECK:         memref.reinterpret_cast %[[B0]]
// CHECK:         tir.block "B_shared"
// CHECK:         gpu.barrier
// CHECK-NEXT:    tir.for %{{.+}} = 0 to 63 {
// CHECK-NEXT:      gpu.barrier
// CHECK-NOT:       gpu.barrier
// CHECK:           memref.reinterpret_cast %[[A1]]
// CHECK-NOT:       gpu.barrier
// CHECK:           tir.block "A_shared"
// CHECK-NOT:       gpu.barrier
// CHECK:           memref.reinterpret_cast %[[B1]]
// CHECK-NOT:       gpu.barrier
// CHECK:           tir.block "B_shared"
// CHECK-NOT:       gpu.barrier
// CHECK:           memref.reinterpret_cast %[[B0]]
// CHECK-NEXT:      arith.constant
// CHECK-NOT:       gpu.barrier
// CHECK:           memref.reinterpret_cast %[[A0]]
// CHECK-NOT:       gpu.barrier
// CHECK:           tir.block "C_update"
// CHECK:           gpu.barrier
// CHECK-NOT:       gpu.barrier
// CHECK:           tir.block "A_shared"
// CHECK-NOT:       gpu.barrier
// CHECK:           tir.block "B_shared"
// CHECK-NOT:       gpu.barrier
// CHECK:           memref.reinterpret_cast %[[B1]]
// CHECK-NOT:       gpu.barrier
// CHECK:           tir.block "C_update"
// CHECK:         }
// CHECK:         gpu.barrier
// CHECK:         tir.block "A_shared"
// CHECK:         tir.block "B_shared"
// CHECK:         tir.block "C_update"
// CHECK:         gpu.barrier
// CHECK:         tir.block "C_update"
// CHECK:         tir.block "C_local"
// CHECK:         gpu.terminator

// A pipeline in a kernel is checked on buffers of the whole shape, before
// its caches are compacted: a use of the shared tile in an earlier stage
// than its copy is refused.
func.func @use_before_copy(%A: memref<64xf32>, %B: memref<64xf32>) {
  %S = tir.alloc_buffer : memref<64xf32, "shared">
  tir.for %b = 0 to 4 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 4 thread_binding<"threadIdx.x"> {
      // expected-error @+1 {{loop 'k' cannot be software-pipelined: statement 1 ('use', stage 0, order 1) reads buffer 'S' after statement 0 ('copy', stage 1, order 0) writes it in the same iteration}}
      tir.for %k = 0 to 4 annotations {software_pipeline_order = [0, 1], software_pipeline_stage = [1, 0]} {
        tir.for %x = 0 to 4 thread_binding<"threadIdx.x"> {
          tir.block "copy"(%v = spatial(64, %b * 16 + %k * 4 + %x)) {
            %0 = tir.load %A[%v] : memref<64xf32>
            tir.store %0, %S[%v] : memref<64xf32, "shared">
          }
        }
        tir.block "use"(%v = spatial(64, %b * 16 + %k * 4 + %t)) {
          %0 = tir.load %S[%v] : memref<64xf32, "shared">
          tir.store %0, %B[%v] : memref<64xf32>
        }
      }
    }
  }
  return
}

// -----

// A shared cache of the tile's own shape, refilled every iteration: the
// same part each time, but compaction allocates it in the loop's body, so
// it is one iteration's and gets two copies instead of being refused.
// TILE-LABEL: func.func @tile_shaped_cache
// TILE:         gpu.launch
// TILE-SAME:      workgroup(%{{.+}} : memref<16xf32, #gpu.address_space<workgroup>>, %{{.+}} : memref<16xf32, #gpu.address_space<workgroup>>)
func.func @tile_shaped_cache(%A: memref<64xf32>, %O: memref<64xf32>) {
  %S = tir.alloc_buffer : memref<16xf32, "shared">
  tir.for %b = 0 to 1 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 16 thread_binding<"threadIdx.x"> {
      tir.for %k = 0 to 4 annotations {software_pipeline_order = [0, 1], software_pipeline_stage = [0, 1]} {
        tir.for %x = 0 to 16 thread_binding<"threadIdx.x"> {
          tir.block "copy"(%v = spatial(16, %x), %a = spatial(64, %k * 16 + %x)) {
            %0 = tir.load %A[%a] : memref<64xf32>
            tir.store %0, %S[%v] : memref<16xf32, "shared">
          }
        }
        tir.block "use"(%v = spatial(16, (%t + 1) mod 16), %o = spatial(64, %k * 16 + %t)) {
          %0 = tir.load %S[%v] : memref<16xf32, "shared">
          tir.store %0, %O[%o] : memref<64xf32>
        }
      }
    }
  }
  return
}
