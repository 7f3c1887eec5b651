func.func @bound(%A: memref<32xf32>) {
  tir.for %t = 0 to 32 thread_binding<"threadIdx.x"> {
    tir.block "B"(%vt = spatial(32, %t)) {
      %a = tir.load %A[%vt] : memref<32xf32>
      tir.store %a, %A[%vt] : memref<32xf32>
    }
  }
  return
}
