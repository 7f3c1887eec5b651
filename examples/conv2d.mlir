// A 2-D convolution (NCHW input, OIHW weights, stride 1, no padding)
// followed by a 2x2 max pooling: each output element reduces over a
// window of the input.
func.func @conv2d_pool(%I: memref<1x4x18x18xf32> {tir.name = "I"},
                       %W: memref<8x4x3x3xf32> {tir.name = "W"},
                       %P: memref<1x8x8x8xf32> {tir.name = "P"}) {
  %O = tir.alloc_buffer : memref<1x8x16x16xf32>
  tir.for %n = 0 to 1 {
    tir.for %f = 0 to 8 {
      tir.for %y = 0 to 16 {
        tir.for %x = 0 to 16 {
          tir.for %c = 0 to 4 {
            tir.for %ky = 0 to 3 {
              tir.for %kx = 0 to 3 {
                tir.block "conv"(%vn = spatial(1, %n), %vf = spatial(8, %f),
                                 %vy = spatial(16, %y), %vx = spatial(16, %x),
                                 %vc = reduce(4, %c), %vky = reduce(3, %ky),
                                 %vkx = reduce(3, %kx)) {
                  tir.init {
                    %zero = arith.constant 0.0 : f32
                    tir.store %zero, %O[%vn, %vf, %vy, %vx] : memref<1x8x16x16xf32>
                  }
                  %acc = tir.load %O[%vn, %vf, %vy, %vx] : memref<1x8x16x16xf32>
                  %in = tir.load %I[%vn, %vc, %vy + %vky, %vx + %vkx] : memref<1x4x18x18xf32>
                  %w = tir.load %W[%vf, %vc, %vky, %vkx] : memref<8x4x3x3xf32>
                  %prod = arith.mulf %in, %w : f32
                  %sum = arith.addf %acc, %prod : f32
                  tir.store %sum, %O[%vn, %vf, %vy, %vx] : memref<1x8x16x16xf32>
                }
              }
            }
          }
        }
      }
    }
  }
  tir.for %n = 0 to 1 {
    tir.for %f = 0 to 8 {
      tir.for %y = 0 to 8 {
        tir.for %x = 0 to 8 {
          tir.for %ry = 0 to 2 {
            tir.for %rx = 0 to 2 {
              tir.block "pool"(%vn = spatial(1, %n), %vf = spatial(8, %f),
                               %vy = spatial(8, %y), %vx = spatial(8, %x),
                               %vry = reduce(2, %ry), %vrx = reduce(2, %rx)) {
                tir.init {
                  %lowest = arith.constant 0xFF800000 : f32
                  tir.store %lowest, %P[%vn, %vf, %vy, %vx] : memref<1x8x8x8xf32>
                }
                %m = tir.load %P[%vn, %vf, %vy, %vx] : memref<1x8x8x8xf32>
                %v = tir.load %O[%vn, %vf, %vy * 2 + %vry, %vx * 2 + %vrx] : memref<1x8x16x16xf32>
                %r = arith.maximumf %m, %v : f32
                tir.store %r, %P[%vn, %vf, %vy, %vx] : memref<1x8x8x8xf32>
              }
            }
          }
        }
      }
    }
  }
  return
}
