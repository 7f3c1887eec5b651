// RUN: tir-opt %s --convert-tir-to-gpu --split-input-file --verify-diagnostics

func.func @rebound(%A: memref<8x8xf32>) {
  %one = arith.constant 1.0 : f32
  tir.for %t = 0 to 8 thread_binding<"threadIdx.x"> {
    // expected-error @+1 {{is bound to 'threadIdx.x' inside a loop bound to it already, with other bounds; nested loops bound to one thread index must have the same iterations}}
    tir.for %u = 0 to 4 thread_binding<"threadIdx.x"> {
      tir.block "A"(%vi = spatial(8, %t), %vj = spatial(8, %u)) {
        tir.store %one, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}

// -----

func.func @warp_memory_without_lanes(%A: memref<32xf32>) {
  tir.for %t = 0 to 32 thread_binding<"threadIdx.x"> {
    tir.block "A"(%vi = spatial(32, %t)) {
      // expected-error @+1 {{allocates 'warp' buffer 'S' of type 'memref<32xf32, "warp">'; a warp buffer's second-to-last dimension is the warp's 32 lanes}}
      %S = tir.alloc_buffer : memref<32xf32, "warp">
      %x = tir.load %A[%vi] : memref<32xf32>
      tir.store %x, %S[%vi] : memref<32xf32, "warp">
    }
  }
  return
}

// -----

// A warpgroup buffer's lanes are the 128 threads of a warpgroup.
func.func @warpgroup_memory_of_a_warp(%A: memref<32x4xf32>) {
  tir.for %t = 0 to 32 thread_binding<"threadIdx.x"> {
    tir.block "A"(%vi = spatial(32, %t)) {
      // expected-error @+1 {{allocates 'warpgroup' buffer 'S' of type 'memref<32x4xf32, "warpgroup">'; a warpgroup buffer's second-to-last dimension is the warpgroup's 128 lanes}}
      %S = tir.alloc_buffer : memref<32x4xf32, "warpgroup">
      %x = tir.load %A[%vi, 0] : memref<32x4xf32>
      tir.store %x, %S[%vi, 0] : memref<32x4xf32, "warpgroup">
    }
  }
  return
}

// -----

// Each thread touches its own row only: a row indexed by another value
// than the thread's index (a shuffle) is refused.
func.func @warpgroup_row_of_another_thread(%A: memref<128x4xf32>) {
  %S = tir.alloc_buffer {buffer_name = "S"} : memref<128x4xf32, "warpgroup">
  tir.for %t = 0 to 128 thread_binding<"threadIdx.x"> {
    tir.block "A"(%vi = spatial(128, %t)) {
      %x = tir.load %A[%vi, 0] : memref<128x4xf32>
      // expected-error @+1 {{'tir.store' op accesses 'warpgroup' buffer 'S' at a lane index that is not the lane's own (a loop bound to threadIdx.x of 128 iterations, or a block variable bound to one); accesses across lanes (shuffles) are not lowered}}
      tir.store %x, %S[127 - %vi, 0] : memref<128x4xf32, "warpgroup">
    }
  }
  return
}

// -----

func.func @fragment_memory(%A: memref<32xf32>) {
  tir.for %t = 0 to 32 thread_binding<"threadIdx.x"> {
    tir.block "A"(%vi = spatial(32, %t)) {
      // expected-error @+1 {{allocates 'wmma.accumulator' fragment buffer 'S' of type 'memref<32xf32, "wmma.accumulator">'; a fragment buffer holds 16 x 16 tiles in its last two dimensions}}
      %S = tir.alloc_buffer : memref<32xf32, "wmma.accumulator">
      %x = tir.load %A[%vi] : memref<32xf32>
      tir.store %x, %S[%vi] : memref<32xf32, "wmma.accumulator">
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
      // expected-error @+1 {{uses buffer 'G', made outside the GPU kernel that starts at the thread-bound loop 't'; a kernel reads and writes the function's parameters and, where the function is built for the runtime (require-kernels), the global-scope buffers the host part allocates (in GPU memory)}}
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
  tir.for %t = 0 to 8 thread_binding<"threadIdx.x"> {
    tir.block "B"(%vi = spatial(8, %t)) {
      // expected-error @+1 {{calls 'trace' in a GPU kernel}}
      tir.call "trace"() : () -> ()
      tir.store %one, %A[%vi] : memref<8xf32>
    }
  }
  return
}

// -----

// A cross-thread reduction of a form not lowered (a subtraction).
func.func @cross_thread_reduction(%A: memref<32xf32>, %S: memref<1xf32>) {
  tir.for %b = 0 to 1 thread_binding<"blockIdx.x"> {
    // expected-error @+1 {{is bound to 'threadIdx.x' and feeds a reduce variable of block 'S': this cross-thread reduction is not of the form lowered (an add, multiply, min or max update of one element, its reduce loops a perfect nest bound to every thread dimension of the block, each as long as its dimension; or bound to threadIdx.x alone, whose extent divides the warp's 32 lanes, the block's threads whole warps)}}
    tir.for %t = 0 to 32 thread_binding<"threadIdx.x"> {
      tir.block "S"(%vb = spatial(1, %b), %vk = reduce(32, %t)) {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %S[%vb] : memref<1xf32>
        }
        %a = tir.load %A[%vk] : memref<32xf32>
        %s = tir.load %S[%vb] : memref<1xf32>
        %sum = arith.subf %s, %a : f32
        tir.store %sum, %S[%vb] : memref<1xf32>
      }
    }
  }
  return
}

// -----

// A reduction in groups (a row per threadIdx.y) whose groups are not
// clusters of one warp's lanes: 48 threads per row.
func.func @grouped_reduction_across_warps(%A: memref<4x96xf32>, %S: memref<4xf32>) {
  tir.for %b = 0 to 1 thread_binding<"blockIdx.x"> {
    tir.for %r = 0 to 4 thread_binding<"threadIdx.y"> {
      tir.for %ko = 0 to 2 {
        // expected-error @+1 {{is bound to 'threadIdx.x' and feeds a reduce variable of block 'S': this cross-thread reduction is not of the form lowered}}
        tir.for %t = 0 to 48 thread_binding<"threadIdx.x"> {
          tir.block "S"(%vi = spatial(4, %r), %vk = reduce(96, %ko * 48 + %t)) {
            tir.init {
              %zero = arith.constant 0.0 : f32
              tir.store %zero, %S[%vi] : memref<4xf32>
            }
            %a = tir.load %A[%vi, %vk] : memref<4x96xf32>
            %s = tir.load %S[%vi] : memref<4xf32>
            %sum = arith.addf %s, %a : f32
            tir.store %sum, %S[%vi] : memref<4xf32>
          }
        }
      }
    }
  }
  return
}

// -----

// A reduction in groups of 8 lanes where the block is not whole warps (2
// rows of 8 threads: half a warp, whose shuffles would read absent lanes).
func.func @grouped_reduction_partial_warp(%A: memref<2x8xf32>, %S: memref<2xf32>) {
  tir.for %b = 0 to 1 thread_binding<"blockIdx.x"> {
    tir.for %r = 0 to 2 thread_binding<"threadIdx.y"> {
      // expected-error @+1 {{is bound to 'threadIdx.x' and feeds a reduce variable of block 'S': this cross-thread reduction is not of the form lowered}}
      tir.for %t = 0 to 8 thread_binding<"threadIdx.x"> {
        tir.block "S"(%vi = spatial(2, %r), %vk = reduce(8, %t)) {
          tir.init {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %S[%vi] : memref<2xf32>
          }
          %a = tir.load %A[%vi, %vk] : memref<2x8xf32>
          %s = tir.load %S[%vi] : memref<2xf32>
          %sum = arith.addf %s, %a : f32
          tir.store %sum, %S[%vi] : memref<2xf32>
        }
      }
    }
  }
  return
}

// -----

// A buffer allocated above the thread-bound loops of a kernel would be one
// copy per thread where the loops share it (shared memory).
func.func @alloc_above_threads(%A: memref<32xf32>, %B: memref<32xf32>) {
  tir.for %b = 0 to 1 thread_binding<"blockIdx.x"> {
    tir.block "K"(%vb = spatial(1, %b)) {
      // expected-error @+1 {{allocates buffer 'G' above thread-bound loops of a GPU kernel: each thread would get a copy of its own, where the loops share it (a 'shared' buffer would be one per block)}}
      %G = tir.alloc_buffer {buffer_name = "G"} : memref<32xf32>
      tir.for %t = 0 to 32 thread_binding<"threadIdx.x"> {
        tir.block "W"(%vi = spatial(32, %t)) {
          %a = tir.load %A[%vi] : memref<32xf32>
          tir.store %a, %G[%vi] : memref<32xf32>
        }
      }
      tir.for %u = 0 to 32 thread_binding<"threadIdx.x"> {
        tir.block "R"(%vi = spatial(32, %u)) {
          %g = tir.load %G[31 - %vi] : memref<32xf32>
          tir.store %g, %B[%vi] : memref<32xf32>
        }
      }
    }
  }
  return
}

// -----

// A view made on the host of a host buffer is host memory too.
func.func @host_view(%A: memref<64xf32>) {
  %one = arith.constant 1.0 : f32
  tir.block "root"() {
    %G = tir.alloc_buffer {buffer_name = "G"} : memref<64xf32>
    %V = tir.match_buffer %G[0 : 32] : memref<64xf32> -> memref<32xf32, strided<[1]>>
    tir.for %t = 0 to 32 thread_binding<"threadIdx.x"> {
      tir.block "W"(%vi = spatial(32, %t)) {
        // expected-error @+1 {{uses buffer 'G', made outside the GPU kernel}}
        tir.store %one, %V[%vi] : memref<32xf32, strided<[1]>>
      }
    }
  }
  return
}

// -----

func.func @grid_reduction(%A: memref<32xf32>, %S: memref<1xf32>) {
  // expected-error @+1 {{is bound to 'blockIdx.x' and feeds a reduce variable of block 'S': the blocks of a grid would race on its output (only threadIdx loops may reduce)}}
  tir.for %b = 0 to 32 thread_binding<"blockIdx.x"> {
    tir.block "S"(%vk = reduce(32, %b)) {
      %a = tir.load %A[%vk] : memref<32xf32>
      %s = tir.load %S[0] : memref<1xf32>
      %sum = arith.addf %s, %a : f32
      tir.store %sum, %S[0] : memref<1xf32>
    }
  }
  return
}

// -----

func.func @extent_from_inside(%A: memref<32x32xf32>) {
  %one = arith.constant 1.0 : f32
  tir.for %b = 0 to 32 thread_binding<"blockIdx.x"> {
    // expected-error @+1 {{is bound to 'threadIdx.x' with a runtime extent the launch cannot size: a GPU kernel's dynamic loops run from 0 to a value defined before the kernel}}
    tir.for %t = 0 to %b thread_binding<"threadIdx.x"> {
      tir.block "A"(%vi = spatial(32, %b), %vj = spatial(32, %t)) {
        tir.store %one, %A[%vi, %vj] : memref<32x32xf32>
      }
    }
  }
  return
}

// -----

func.func @too_many_threads(%A: memref<64x32xf32>) {
  %one = arith.constant 1.0 : f32
  // expected-error @+1 {{starts a GPU kernel of 2048 threads per block, over CUDA's limit of 1024}}
  tir.for %y = 0 to 64 thread_binding<"threadIdx.y"> {
    tir.for %x = 0 to 32 thread_binding<"threadIdx.x"> {
      tir.block "A"(%vi = spatial(64, %y), %vj = spatial(32, %x)) {
        tir.store %one, %A[%vi, %vj] : memref<64x32xf32>
      }
    }
  }
  return
}

// -----

func.func @grid_too_tall(%A: memref<100000xf32>) {
  %one = arith.constant 1.0 : f32
  // expected-error @+1 {{starts a GPU kernel whose grid is 100000 blocks along y, over CUDA's limit of 65535}}
  tir.for %y = 0 to 100000 thread_binding<"blockIdx.y"> {
    tir.block "A"(%vi = spatial(100000, %y)) {
      tir.store %one, %A[%vi] : memref<100000xf32>
    }
  }
  return
}

// -----

func.func @no_threads(%A: memref<8xf32>) {
  %one = arith.constant 1.0 : f32
  // expected-error @+1 {{is bound to 'threadIdx.x' with no iterations; a GPU launch needs at least one thread in each dimension}}
  tir.for %t = 0 to 0 thread_binding<"threadIdx.x"> {
    tir.block "A"(%vi = spatial(8, %t)) {
      tir.store %one, %A[%vi] : memref<8xf32>
    }
  }
  return
}

// -----

func.func @extern_call(%A: memref<8xf32>) {
  tir.for %t = 0 to 8 thread_binding<"threadIdx.x"> {
    tir.block "A"(%vi = spatial(8, %t)) {
      // expected-error @+1 {{calls 'call_extern' ('fence') in a GPU kernel; calls are not lowered to GPU kernels (but the tensor-core instructions}}
      tir.call "call_extern"("fence", %A) : (memref<8xf32>) -> ()
    }
  }
  return
}

// -----

// A local buffer (one per thread) allocated at the root whose accesses lie
// in different threads: it cannot be given to one thread.
func.func @local_across_threads(%A: memref<32xf32>, %B: memref<32xf32>) {
  // expected-error @+1 {{allocates 'local' buffer 'L' for the GPU kernel that starts at loop 'b', but it cannot be allocated in the kernel: its accesses lie in several threads (loop 'u' bound to 'threadIdx.x'), but a local buffer is one thread's (use 'shared' for a buffer the threads of a block share)}}
  %L = tir.alloc_buffer {buffer_name = "L"} : memref<32xf32, "local">
  tir.for %b = 0 to 1 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 32 thread_binding<"threadIdx.x"> {
      tir.block "W"(%vi = spatial(32, %t)) {
        %a = tir.load %A[%vi] : memref<32xf32>
        tir.store %a, %L[%vi] : memref<32xf32, "local">
      }
    }
    tir.for %u = 0 to 32 thread_binding<"threadIdx.x"> {
      tir.block "R"(%vi = spatial(32, %u)) {
        %l = tir.load %L[31 - %vi] : memref<32xf32, "local">
        tir.store %l, %B[%vi] : memref<32xf32>
      }
    }
  }
  return
}

// -----

// Inside a loop bound to threadIdx.x with 32 of the block's 64 threads,
// shared memory written and then read by another thread: the read needs a
// barrier before it, where only the first 32 threads are.
func.func @barrier_under_guard(%A: memref<64xf32>, %B: memref<32xf32>) {
  %S = tir.alloc_buffer {buffer_name = "S"} : memref<64xf32, "shared">
  tir.for %b = 0 to 1 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 64 thread_binding<"threadIdx.x"> {
      tir.block "W"(%vi = spatial(64, %t)) {
        %a = tir.load %A[%vi] : memref<64xf32>
        tir.store %a, %S[%vi] : memref<64xf32, "shared">
      }
    }
    tir.for %u = 0 to 32 thread_binding<"threadIdx.x"> {
      tir.block "W2"(%vi = spatial(32, %u)) {
        %a = tir.load %A[%vi] : memref<64xf32>
        tir.store %a, %S[%vi + 32] : memref<64xf32, "shared">
      }
      // expected-error @+1 {{needs a barrier before it (it reads or writes shared memory that other threads access before it), but it runs under a condition that not every thread of the block meets}}
      tir.block "R"(%vi = spatial(32, %u)) {
        %s = tir.load %S[31 - %vi] : memref<64xf32, "shared">
        tir.store %s, %B[%vi] : memref<32xf32>
      }
    }
  }
  return
}

// -----

// A shared cache larger than a block of the chip may hold (sm_80: 163 KiB,
// 48 KiB of it static, the rest dynamic).
func.func @too_much_shared(%A: memref<128x384xf32>, %B: memref<128x384xf32>) {
  %S = tir.alloc_buffer {buffer_name = "S"} : memref<128x384xf32, "shared">
  // expected-error @+1 {{starts a GPU kernel holding 196608 bytes of shared memory, over the 166912 bytes one block may hold on sm_80 (use smaller tiles, fewer pipeline stages, or a GPU with more shared memory)}}
  tir.for %b = 0 to 1 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 128 thread_binding<"threadIdx.x"> {
      tir.for %j = 0 to 384 {
        tir.block "W"(%vi = spatial(128, %t), %vj = spatial(384, %j)) {
          %a = tir.load %A[%vi, %vj] : memref<128x384xf32>
          tir.store %a, %S[%vi, %vj] : memref<128x384xf32, "shared">
        }
      }
    }
    tir.for %u = 0 to 128 thread_binding<"threadIdx.x"> {
      tir.for %j = 0 to 384 {
        tir.block "R"(%vi = spatial(128, %u), %vj = spatial(384, %j)) {
          %s = tir.load %S[127 - %vi, %vj] : memref<128x384xf32, "shared">
          tir.store %s, %B[%vi, %vj] : memref<128x384xf32>
        }
      }
    }
  }
  return
}

// -----

// WMMA fragments of f32 operands (tf32 products) are not lowered.
func.func @f32_operand_fragment(%A: memref<16x16xf32>) {
  tir.for %t = 0 to 32 thread_binding<"threadIdx.x"> {
    tir.block "A"(%vi = spatial(32, %t)) {
      // expected-error @+1 {{allocates 'wmma.matrix_a' fragment buffer 'S' of 'f32'; WMMA fragments are lowered for f16 and int8 operands and f16 / f32 / int32 accumulators}}
      %S = tir.alloc_buffer : memref<16x16xf32, "wmma.matrix_a">
    }
  }
  return
}

// -----

// A WMMA fragment's layout is opaque: only the tensor intrinsics move it.
func.func @fragment_element(%A: memref<16x16xf32>) {
  tir.for %t = 0 to 32 thread_binding<"threadIdx.x"> {
    tir.block "A"(%vi = spatial(16, %t floordiv 2)) {
      %S = tir.alloc_buffer : memref<16x16xf32, "wmma.accumulator">
      %x = tir.load %A[%vi, 0] : memref<16x16xf32>
      // expected-error @+1 {{accesses 'wmma.accumulator' fragment buffer 'S' in 'tir.store'; a fragment's layout is opaque: only the tensor intrinsics' instructions move it}}
      tir.store %x, %S[%vi, 0] : memref<16x16xf32, "wmma.accumulator">
    }
  }
  return
}

// -----

// A shared buffer of runtime size whose part one block touches is of
// runtime size too (every row, in each block): it cannot be the block's.
func.func @dynamic_part(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
  // expected-error @+1 {{allocates 'shared' buffer 'M' for the GPU kernel that starts at loop 'b', but it cannot be allocated in the kernel: the part of it each execution touches is not of a constant size in dimension 0}}
  %M = tir.alloc_buffer(%n) {buffer_name = "M"} : memref<?xf32, "shared">
  tir.for %b = 0 to 4 thread_binding<"blockIdx.x"> {
    tir.for %i = 0 to %n {
      tir.block "W"(%vb = spatial(4, %b), %vi = spatial(%n, %i)) {
        %a = tir.load %A[%vi] : memref<?xf32>
        tir.store %a, %M[%vi] : memref<?xf32, "shared">
      }
    }
    tir.for %i = 0 to %n {
      tir.block "R"(%vb = spatial(4, %b), %vi = spatial(%n, %i)) {
        %m = tir.load %M[%vi] : memref<?xf32, "shared">
        tir.store %m, %B[%vi] : memref<?xf32>
      }
    }
  }
  return
}
