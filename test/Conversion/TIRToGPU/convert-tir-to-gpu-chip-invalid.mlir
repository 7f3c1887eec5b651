// RUN: tir-opt %s --convert-tir-to-gpu=chip=sm_75 --split-input-file --verify-diagnostics
// RUN: not tir-opt %s --convert-tir-to-gpu=chip=gfx90a 2>&1 | FileCheck %s --check-prefix=CHIP

// CHIP: error: convert-tir-to-gpu: 'gfx90a' is not a GPU (sm_XY, e.g. sm_80)

// What the chip the kernels are for cannot run: asynchronous copies before
// sm_80, more shared memory than a block holds (sm_75: 64 KiB).

func.func @async_before_sm80(%A: memref<256xf32>, %B: memref<256xf32>) {
  %S = tir.alloc_buffer {buffer_name = "S"} : memref<256xf32, "shared">
  tir.for %b = 0 to 4 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 16 thread_binding<"threadIdx.x"> {
      // expected-error @+1 {{loop 'k' has asynchronous stages ('software_pipeline_async_stages' = [0]), whose copies need cp.async: sm_80 or newer, not sm_75 (drop the annotation to pipeline synchronously)}}
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

func.func @over_sm75_shared(%A: memref<16896xf32>, %B: memref<16896xf32>) {
  %S = tir.alloc_buffer {buffer_name = "S"} : memref<16896xf32, "shared">
  // expected-error @+1 {{starts a GPU kernel holding 67584 bytes of shared memory, over the 65536 bytes one block may hold on sm_75}}
  tir.for %b = 0 to 1 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 128 thread_binding<"threadIdx.x"> {
      tir.for %j = 0 to 132 {
        tir.block "W"(%v = spatial(16896, %j * 128 + %t)) {
          %a = tir.load %A[%v] : memref<16896xf32>
          tir.store %a, %S[%v] : memref<16896xf32, "shared">
        }
      }
    }
    tir.for %u = 0 to 128 thread_binding<"threadIdx.x"> {
      tir.for %j = 0 to 132 {
        tir.block "R"(%v = spatial(16896, %j * 128 + %u)) {
          %s = tir.load %S[16895 - %v] : memref<16896xf32, "shared">
          tir.store %s, %B[%v] : memref<16896xf32>
        }
      }
    }
  }
  return
}
