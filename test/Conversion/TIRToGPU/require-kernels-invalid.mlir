// RUN: tir-opt %s --convert-tir-to-gpu=require-kernels --split-input-file --verify-diagnostics

// Built for the runtime, a function's buffers are in GPU memory: a block
// outside every kernel cannot touch them.
func.func @unbound(%A: memref<8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      // expected-error @+1 {{accesses buffer 'A' in block 'B' on the host, outside every GPU kernel, but the function's buffers are in GPU memory: bind the loops around it to blockIdx / threadIdx (did you forget to bind?)}}
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  return
}

// -----

// An intermediate the kernels use is in GPU memory too: the host may not
// read it.
func.func @intermediate_on_host(%A: memref<8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}) {
  %G = tir.alloc_buffer {buffer_name = "G"} : memref<8xf32>
  tir.for %t = 0 to 8 thread_binding<"threadIdx.x"> {
    tir.block "W"(%vi = spatial(8, %t)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %G[%vi] : memref<8xf32>
    }
  }
  tir.for %i = 0 to 8 {
    tir.block "R"(%vi = spatial(8, %i)) {
      // expected-error @+1 {{accesses buffer 'G' in block 'R' on the host, outside every GPU kernel, but an intermediate buffer its kernels use is in GPU memory: bind the loops around it to blockIdx / threadIdx (did you forget to bind?)}}
      %g = tir.load %G[%vi] : memref<8xf32>
      tir.store %g, %B[%vi] : memref<8xf32>
    }
  }
  return
}
