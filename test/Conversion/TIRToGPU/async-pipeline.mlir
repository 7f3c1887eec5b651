// RUN: tir-opt %s --convert-tir-to-gpu --split-input-file | FileCheck %s

// Two stages, the copies asynchronous: each copy into shared memory is
// marked (cp.async once lowered) and committed as a group per iteration;
// the use of iteration j waits until at most one group (j + 1's) is
// pending, then the block synchronizes; after the last copy every group
// is waited for.
// CHECK-LABEL: func.func @two_stages
// CHECK:         tir.block "copy"
// CHECK:           tir.store {{.*}} {tir.async_copy}
// CHECK:         tir.call "call_extern"("tir.ptx_commit_group")
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    tir.for %k_0 = 0 to 1 {
// CHECK:           tir.block "copy"
// CHECK:           tir.call "call_extern"("tir.ptx_commit_group")
// CHECK-NEXT:      tir.call "call_extern"("tir.ptx_wait_group", 1 : i32)
// CHECK-NEXT:      gpu.barrier
// CHECK:           tir.block "use"
// CHECK:           gpu.barrier
// CHECK:           tir.block "copy"
// CHECK:           tir.call "call_extern"("tir.ptx_commit_group")
// CHECK-NEXT:      tir.call "call_extern"("tir.ptx_wait_group", 1 : i32)
// CHECK-NEXT:      gpu.barrier
// CHECK:           tir.block "use"
// CHECK:         }
// CHECK:         gpu.barrier
// CHECK:         tir.block "copy"
// CHECK:         tir.call "call_extern"("tir.ptx_commit_group")
// CHECK-NEXT:    tir.call "call_extern"("tir.ptx_wait_group", 1 : i32)
// CHECK-NEXT:    gpu.barrier
// CHECK:         tir.block "use"
// CHECK:         tir.call "call_extern"("tir.ptx_wait_group", 0 : i32)
// CHECK-NEXT:    gpu.barrier
// CHECK:         tir.block "use"
// CHECK-NOT:     tir.call
// CHECK:         gpu.terminator
func.func @two_stages(%A: memref<256xf32>, %B: memref<256xf32>) {
  %S = tir.alloc_buffer {buffer_name = "S"} : memref<256xf32, "shared">
  tir.for %b = 0 to 4 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 16 thread_binding<"threadIdx.x"> {
      tir.for %k = 0 to 4 annotations {software_pipeline_async_stages = [0], software_pipeline_order = [0, 1], software_pipeline_stage = [0, 1]} {
        tir.for %x = 0 to 16 thread_binding<"threadIdx.x"> {
          tir.block "copy"(%v = spatial(256, %b * 64 + %k * 16 + %x)) {
            %0 = tir.load %A[%v] : memref<256xf32>
            tir.store %0, %S[%v] : memref<256xf32, "shared">
          }
        }
        tir.block "use"(%v = spatial(256, %b * 64 + %k * 16 + 15 - %t)) {
          %0 = tir.load %S[%v] : memref<256xf32, "shared">
          tir.store %0, %B[%v] : memref<256xf32>
        }
      }
    }
  }
  return
}

// -----

// Copies two iterations ahead (three copies of the tile): the steady loop
// leaves two groups pending; the epilogue's waits count down (1, then 0),
// as fewer groups follow the last ones.
// CHECK-LABEL: func.func @three_stages
// CHECK-COUNT-2: tir.call "call_extern"("tir.ptx_commit_group")
// CHECK:         tir.for %k_0 = 0 to 2 {
// CHECK-COUNT-3:   tir.call "call_extern"("tir.ptx_wait_group", 2 : i32)
// CHECK:         }
// CHECK:         tir.call "call_extern"("tir.ptx_wait_group", 1 : i32)
// CHECK:         tir.block "use"
// CHECK:         tir.call "call_extern"("tir.ptx_wait_group", 0 : i32)
// CHECK:         tir.block "use"
// CHECK:         gpu.terminator
func.func @three_stages(%A: memref<512xf32>, %B: memref<512xf32>) {
  %S = tir.alloc_buffer {buffer_name = "S"} : memref<512xf32, "shared">
  tir.for %b = 0 to 4 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 16 thread_binding<"threadIdx.x"> {
      tir.for %k = 0 to 8 annotations {software_pipeline_async_stages = [0], software_pipeline_order = [0, 1], software_pipeline_stage = [0, 2]} {
        tir.for %x = 0 to 16 thread_binding<"threadIdx.x"> {
          tir.block "copy"(%v = spatial(512, %b * 128 + %k * 16 + %x)) {
            %0 = tir.load %A[%v] : memref<512xf32>
            tir.store %0, %S[%v] : memref<512xf32, "shared">
          }
        }
        tir.block "use"(%v = spatial(512, %b * 128 + %k * 16 + 15 - %t)) {
          %0 = tir.load %S[%v] : memref<512xf32, "shared">
          tir.store %0, %B[%v] : memref<512xf32>
        }
      }
    }
  }
  return
}

// -----

// The use ordered before the copy in a step: one copy of the tile, each
// use waiting for every group (its iteration's is the last committed).
// CHECK-LABEL: func.func @use_first
// CHECK:         tir.call "call_extern"("tir.ptx_commit_group")
// CHECK:         tir.for %k = 1 to 4 {
// CHECK-NEXT:      tir.call "call_extern"("tir.ptx_wait_group", 0 : i32)
// CHECK-NEXT:      gpu.barrier
// CHECK:           tir.block "use"
// CHECK:           gpu.barrier
// CHECK:           tir.block "copy"
// CHECK:           tir.call "call_extern"("tir.ptx_commit_group")
// CHECK:         }
// CHECK:         tir.call "call_extern"("tir.ptx_wait_group", 0 : i32)
// CHECK:         tir.block "use"
func.func @use_first(%A: memref<256xf32>, %B: memref<256xf32>) {
  %S = tir.alloc_buffer {buffer_name = "S"} : memref<256xf32, "shared">
  tir.for %b = 0 to 4 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 16 thread_binding<"threadIdx.x"> {
      tir.for %k = 0 to 4 annotations {software_pipeline_async_stages = [0], software_pipeline_order = [1, 0], software_pipeline_stage = [0, 1]} {
        tir.for %x = 0 to 16 thread_binding<"threadIdx.x"> {
          tir.block "copy"(%v = spatial(256, %b * 64 + %k * 16 + %x)) {
            %0 = tir.load %A[%v] : memref<256xf32>
            tir.store %0, %S[%v] : memref<256xf32, "shared">
          }
        }
        tir.block "use"(%v = spatial(256, %b * 64 + %k * 16 + 15 - %t)) {
          %0 = tir.load %S[%v] : memref<256xf32, "shared">
          tir.store %0, %B[%v] : memref<256xf32>
        }
      }
    }
  }
  return
}
