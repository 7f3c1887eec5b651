// A 2-D kernel: 16 x 16 threads per block, a grid of 4 x 8 blocks over a
// 64 x 128 array, each thread computing log(1 + exp(x)) (math through
// libdevice).
func.func @softplus_2d(%X: memref<64x128xf32> {tir.name = "X"}, %Y: memref<64x128xf32> {tir.name = "Y"}) {
  tir.for %by = 0 to 4 thread_binding<"blockIdx.y"> {
    tir.for %bx = 0 to 8 thread_binding<"blockIdx.x"> {
      tir.for %ty = 0 to 16 thread_binding<"threadIdx.y"> {
        tir.for %tx = 0 to 16 thread_binding<"threadIdx.x"> {
          tir.block "Y"(%vi = spatial(64, %by * 16 + %ty), %vj = spatial(128, %bx * 16 + %tx)) {
            %x = tir.load %X[%vi, %vj] : memref<64x128xf32>
            %e = math.exp %x : f32
            %one = arith.constant 1.0 : f32
            %s = arith.addf %e, %one : f32
            %l = math.log %s : f32
            tir.store %l, %Y[%vi, %vj] : memref<64x128xf32>
          }
        }
      }
    }
  }
  return
}
