// A row softmax (64 rows of 1024) scheduled for a GPU as
// bench/gpu/programs.py's schedule_softmax does it: one block of 256
// threads per row (blockIdx.x); the row's max and sum are reductions
// across the block's threads (the reduce loop split and its inner part
// bound to threadIdx.x), held in shared memory for the row (set_scope);
// each thread handles every 256th element. convert-tir-to-gpu lowers the
// two cross-thread reductions (per-thread partials, gpu.all_reduce: warp
// shuffles, then shared memory) and puts barriers between the stages.
module {
  func.func @main(%arg0: memref<64x1024xf32> {tir.name = "A"}, %arg1: memref<64x1024xf32> {tir.name = "S"}) {
    %mx = tir.alloc_buffer : memref<64xf32, "shared">
    %den = tir.alloc_buffer : memref<64xf32, "shared">
    tir.for %i = 0 to 64 thread_binding<"blockIdx.x"> {
      tir.for %ax0_0 = 0 to 4 {
        tir.for %ax0_1 = 0 to 256 thread_binding<"threadIdx.x"> {
          tir.block "max"(%vi = spatial(64, %i), %vj = reduce(1024, %ax0_0 * 256 + %ax0_1)) {
            tir.init {
              %cst = arith.constant -3.40282347E+38 : f32
              tir.store %cst, %mx[%vi] : memref<64xf32, "shared">
            }
            %0 = tir.load %mx[%vi] : memref<64xf32, "shared">
            %1 = tir.load %arg0[%vi, %vj] : memref<64x1024xf32>
            %2 = arith.maximumf %0, %1 : f32
            tir.store %2, %mx[%vi] : memref<64xf32, "shared">
          }
        }
      }
      tir.for %ax0_0 = 0 to 4 {
        tir.for %ax0_1 = 0 to 256 thread_binding<"threadIdx.x"> {
          tir.block "sum"(%vi = spatial(64, %i), %vj = reduce(1024, %ax0_0 * 256 + %ax0_1)) {
            tir.init {
              %cst = arith.constant 0.000000e+00 : f32
              tir.store %cst, %den[%vi] : memref<64xf32, "shared">
            }
            %0 = tir.load %den[%vi] : memref<64xf32, "shared">
            %1 = tir.load %arg0[%vi, %vj] : memref<64x1024xf32>
            %2 = tir.load %mx[%vi] : memref<64xf32, "shared">
            %3 = arith.subf %1, %2 : f32
            %4 = math.exp %3 : f32
            %5 = arith.addf %0, %4 : f32
            tir.store %5, %den[%vi] : memref<64xf32, "shared">
          }
        }
      }
      tir.for %j_0 = 0 to 4 {
        tir.for %j_1 = 0 to 256 thread_binding<"threadIdx.x"> {
          tir.block "out"(%vi = spatial(64, %i), %vj = spatial(1024, %j_0 * 256 + %j_1)) {
            %0 = tir.load %arg0[%vi, %vj] : memref<64x1024xf32>
            %1 = tir.load %mx[%vi] : memref<64xf32, "shared">
            %2 = arith.subf %0, %1 : f32
            %3 = math.exp %2 : f32
            %4 = tir.load %den[%vi] : memref<64xf32, "shared">
            %5 = arith.divf %3, %4 : f32
            tir.store %5, %arg1[%vi, %vj] : memref<64x1024xf32>
          }
        }
      }
    }
    return
  }
}
