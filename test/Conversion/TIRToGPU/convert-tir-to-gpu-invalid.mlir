// RUN: tir-opt %s --convert-tir-to-gpu --split-input-file --verify-diagnostics

func.func @vthread(%A: memref<8xf32>) {
  %one = arith.constant 1.0 : f32
  // expected-error @+1 {{is bound to 'vthread.x'; GPU kernels lower blockIdx.{x,y,z} and threadIdx.{x,y,z} (virtual threads are not lowered yet)}}
  tir.for %v = 0 to 8 thread_binding<"vthread.x"> {
    tir.block "A"(%vi = spatial(8, %v)) {
      tir.store %one, %A[%vi] : memref<8xf32>
    }
  }
  return
}

// -----

func.func @rebound(%A: memref<8x8xf32>) {
  %one = arith.constant 1.0 : f32
  tir.for %t = 0 to 8 thread_binding<"threadIdx.x"> {
    // expected-error @+1 {{is bound to 'threadIdx.x' inside a loop bound to it already}}
    tir.for %u = 0 to 8 thread_binding<"threadIdx.x"> {
      tir.block "A"(%vi = spatial(8, %t), %vj = spatial(8, %u)) {
        tir.store %one, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}

// -----

func.func @shared_memory(%A: memref<32xf32>) {
  tir.for %t = 0 to 32 thread_binding<"threadIdx.x"> {
    tir.block "A"(%vi = spatial(32, %t)) {
      // expected-error @+1 {{allocates a 'shared' buffer in a GPU kernel; shared and local memory are not lowered yet}}
      %S = tir.alloc_buffer : memref<32xf32, "shared">
      %x = tir.load %A[%vi] : memref<32xf32>
      tir.store %x, %S[%vi] : memref<32xf32, "shared">
    }
  }
  return
}

// -----

func.func @global_intermediate(%A: memref<32xf32>) {
  %one = arith.constant 1.0 : f32
  %G = tir.alloc_buffer {buffer_name = "G"} : memref<32xf32>
  tir.for %t = 0 to 32 thread_binding<"threadIdx.x"> {
    tir.block "A"(%vi = spatial(32, %t)) {
      // expected-error @+1 {{uses buffer 'G', allocated outside the GPU kernel that starts at the thread-bound loop 't'; intermediate buffers in global memory are not lowered yet (allocate it inside the kernel)}}
      tir.store %one, %G[%vi] : memref<32xf32>
    }
  }
  return
}

// -----

func.func @two_runtime_extents(%A: memref<?xf32>, %n: index, %m: index) {
  %one = arith.constant 1.0 : f32
  tir.for %b = 0 to 1 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to %n thread_binding<"threadIdx.x"> {
      tir.block "A"(%vi = spatial(%n, %t)) {
        tir.store %one, %A[%vi] : memref<?xf32>
      }
    }
    // expected-error @+1 {{is bound to 'threadIdx.x', which another loop gives another extent}}
    tir.for %u = 0 to %m thread_binding<"threadIdx.x"> {
      tir.block "B"(%vi = spatial(%m, %u)) {
        tir.store %one, %A[%vi] : memref<?xf32>
      }
    }
  }
  return
}

// -----

// Nothing changes when a kernel is refused: the first kernel here is fine,
// the second is not.
func.func @all_or_nothing(%A: memref<8xf32>) {
  %one = arith.constant 1.0 : f32
  tir.for %t = 0 to 8 thread_binding<"threadIdx.x"> {
    tir.block "A"(%vi = spatial(8, %t)) {
      tir.store %one, %A[%vi] : memref<8xf32>
    }
  }
  // expected-error @+1 {{is bound to 'vthread'}}
  tir.for %v = 0 to 8 thread_binding<"vthread"> {
    tir.block "B"(%vi = spatial(8, %v)) {
      tir.store %one, %A[%vi] : memref<8xf32>
    }
  }
  return
}
