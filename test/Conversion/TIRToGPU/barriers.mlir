// RUN: tir-opt %s --convert-tir-to-gpu --split-input-file | FileCheck %s

// A thread reads back the element of shared memory it wrote itself (the
// same index, from its thread index): no barrier.
// CHECK-LABEL: func.func @own_element
// CHECK-NOT:     gpu.barrier
// CHECK:         return
func.func @own_element(%A: memref<64xf32>, %B: memref<64xf32>) {
  %S = tir.alloc_buffer {buffer_name = "S"} : memref<64xf32, "shared">
  tir.for %b = 0 to 1 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 64 thread_binding<"threadIdx.x"> {
      tir.block "W"(%vi = spatial(64, %t)) {
        %a = tir.load %A[%vi] : memref<64xf32>
        tir.store %a, %S[%vi] : memref<64xf32, "shared">
        %s = tir.load %S[%vi] : memref<64xf32, "shared">
        tir.store %s, %B[%vi] : memref<64xf32>
      }
    }
  }
  return
}

// -----

// One thread (a predicated block) writes S[0], all read it: a barrier
// between, although the index is the same (it does not come from the
// thread index).
// CHECK-LABEL: func.func @one_writer
// CHECK:         tir.block "W"
// CHECK:         gpu.barrier
// CHECK-NEXT:    tir.block "R"
func.func @one_writer(%A: memref<64xf32>, %B: memref<64xf32>) {
  %S = tir.alloc_buffer {buffer_name = "S"} : memref<1xf32, "shared">
  tir.for %b = 0 to 1 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 64 thread_binding<"threadIdx.x"> {
      tir.block "W"(%vi = spatial(64, %t)) where(%t < 1) {
        %a = tir.load %A[%vi] : memref<64xf32>
        tir.store %a, %S[0] : memref<1xf32, "shared">
      }
      tir.block "R"(%vi = spatial(64, %t)) {
        %s = tir.load %S[0] : memref<1xf32, "shared">
        tir.store %s, %B[%vi] : memref<64xf32>
      }
    }
  }
  return
}

// -----

// In a loop, each step writes S[t + k] and reads S[t + k]: the same values,
// but in the next step thread t writes the element thread t + 1 read in
// this one. A barrier at the top of the loop's body (where S, compacted
// to the 64 elements one step touches, is seen through a view).
// CHECK-LABEL: func.func @loop_carried
// CHECK:         tir.for %{{.*}} = 0 to 8 {
// CHECK-NEXT:      gpu.barrier
// CHECK-NOT:       gpu.barrier
// CHECK:           tir.block "S"
func.func @loop_carried(%A: memref<8x64xf32>, %B: memref<8x64xf32>) {
  %S = tir.alloc_buffer {buffer_name = "S"} : memref<72xf32, "shared">
  tir.for %b = 0 to 1 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 64 thread_binding<"threadIdx.x"> {
      tir.for %k = 0 to 8 {
        tir.block "S"(%vt = spatial(64, %t), %vk = spatial(8, %k)) {
          %a = tir.load %A[%vk, %vt] : memref<8x64xf32>
          tir.store %a, %S[%vt + %vk] : memref<72xf32, "shared">
          %s = tir.load %S[%vt + %vk] : memref<72xf32, "shared">
          tir.store %s, %B[%vk, %vt] : memref<8x64xf32>
        }
      }
    }
  }
  return
}

// -----

// Inside one block: a predicated block writes S[0], then the outer block's
// own statement reads S[0]. The index is the same but comes from no thread
// index (and the write happened in one thread only): a barrier between.
// CHECK-LABEL: func.func @same_index_not_the_threads
// CHECK:         tir.block "W"
// CHECK:         gpu.barrier
// CHECK-NEXT:    tir.load %{{.*}}[0]
func.func @same_index_not_the_threads(%A: memref<64xf32>, %B: memref<64xf32>) {
  %S = tir.alloc_buffer {buffer_name = "S"} : memref<1xf32, "shared">
  tir.for %b = 0 to 1 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 64 thread_binding<"threadIdx.x"> {
      tir.block "outer"(%vo = spatial(64, %t)) {
        tir.block "W"(%vi = spatial(64, %vo)) where(%vo < 1) {
          %a = tir.load %A[%vi] : memref<64xf32>
          tir.store %a, %S[0] : memref<1xf32, "shared">
        }
        %s = tir.load %S[0] : memref<1xf32, "shared">
        tir.store %s, %B[%vo] : memref<64xf32>
      }
    }
  }
  return
}
