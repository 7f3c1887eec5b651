// REQUIRES: ptxas
// RUN: tir-translate --tir-to-ptx %s -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: %ptxas -arch=sm_80 %t.ptx -o %t.cubin
// RUN: tir-translate --tir-to-ptx --cuda-chip=sm_90 %s -o %t90.ptx
// RUN: %ptxas -arch=sm_90 %t90.ptx -o %t90.cubin

// A two-stage pipeline whose copies are asynchronous: each thread's copy
// of four floats (a vectorized loop; the parameters' alignment is not
// known here, so four 4-byte copies) is a cp.async, committed per
// iteration and waited for before the use; 64 KiB of shared memory (two
// copies of a 32 KiB tile) come from the kernel's dynamic shared memory.
// CHECK: .extern .shared .align 16 .b8 __tir_dynamic_shared[];
// CHECK: cp.async.ca.shared.global [%{{.*}}], [%{{.*}}], 4;
// CHECK: cp.async.commit_group;
// CHECK: cp.async.wait_group {{[[:space:]]*}}1;
// CHECK-NEXT: bar.sync {{[[:space:]]*}}0;
// CHECK: cp.async.wait_group {{[[:space:]]*}}0;
// CHECK-NEXT: bar.sync {{[[:space:]]*}}0;
func.func @pipelined_copy(%A: memref<64x65536xf32>, %B: memref<64x65536xf32>) {
  %S = tir.alloc_buffer {buffer_name = "S"} : memref<64x65536xf32, "shared">
  tir.for %b = 0 to 64 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 256 thread_binding<"threadIdx.x"> {
      tir.for %k = 0 to 8 annotations {software_pipeline_async_stages = [0], software_pipeline_order = [0, 1], software_pipeline_stage = [0, 1]} {
        tir.for %r = 0 to 8 {
          tir.for %x = 0 to 256 thread_binding<"threadIdx.x"> {
            tir.for %l = 0 to 4 vectorized {
              tir.block "copy"(%vb = spatial(64, %b), %v = spatial(65536, %k * 8192 + %r * 1024 + %x * 4 + %l)) {
                %0 = tir.load %A[%vb, %v] : memref<64x65536xf32>
                tir.store %0, %S[%vb, %v] : memref<64x65536xf32, "shared">
              }
            }
          }
        }
        tir.for %j = 0 to 32 {
          tir.block "use"(%vb = spatial(64, %b), %v = spatial(65536, %k * 8192 + 8191 - %t * 32 - %j)) {
            %0 = tir.load %S[%vb, %v] : memref<64x65536xf32, "shared">
            tir.store %0, %B[%vb, %v] : memref<64x65536xf32>
          }
        }
      }
    }
  }
  return
}
