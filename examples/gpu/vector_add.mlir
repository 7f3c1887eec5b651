// A vector add as a GPU kernel: 8 blocks of 128 threads over 1000
// elements; the threads past the end do nothing (the block's predicate).
func.func @vadd(%A: memref<1000xf32> {tir.name = "A"}, %B: memref<1000xf32> {tir.name = "B"}, %C: memref<1000xf32> {tir.name = "C"}) {
  tir.for %bx = 0 to 8 thread_binding<"blockIdx.x"> {
    tir.for %tx = 0 to 128 thread_binding<"threadIdx.x"> {
      tir.block "C"(%vi = spatial(1000, %bx * 128 + %tx)) where(%bx * 128 + %tx < 1000) {
        %a = tir.load %A[%vi] : memref<1000xf32>
        %b = tir.load %B[%vi] : memref<1000xf32>
        %s = arith.addf %a, %b : f32
        tir.store %s, %C[%vi] : memref<1000xf32>
      }
    }
  }
  return
}
