// D = relu(A x B): matmul into an intermediate buffer allocated in the
// function's root scope, then ReLU, as te.create_prim_func([A, B, D])
// builds it.
func.func @matmul_relu(%A: memref<128x128xf32> {tir.name = "A"},
                       %B: memref<128x128xf32> {tir.name = "B"},
                       %D: memref<128x128xf32> {tir.name = "D"}) {
  %Y = tir.alloc_buffer : memref<128x128xf32>
  tir.for %i = 0 to 128 {
    tir.for %j = 0 to 128 {
      tir.for %k = 0 to 128 {
        tir.block "Y"(%vi = spatial(128, %i), %vj = spatial(128, %j),
                      %vk = reduce(128, %k)) {
          tir.init {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %Y[%vi, %vj] : memref<128x128xf32>
          }
          %y = tir.load %Y[%vi, %vj] : memref<128x128xf32>
          %a = tir.load %A[%vi, %vk] : memref<128x128xf32>
          %b = tir.load %B[%vk, %vj] : memref<128x128xf32>
          %prod = arith.mulf %a, %b : f32
          %sum = arith.addf %y, %prod : f32
          tir.store %sum, %Y[%vi, %vj] : memref<128x128xf32>
        }
      }
    }
  }
  tir.for %i = 0 to 128 {
    tir.for %j = 0 to 128 {
      tir.block "D"(%vi = spatial(128, %i), %vj = spatial(128, %j)) {
        %y = tir.load %Y[%vi, %vj] : memref<128x128xf32>
        %zero = arith.constant 0.0 : f32
        %r = arith.maximumf %y, %zero : f32
        tir.store %r, %D[%vi, %vj] : memref<128x128xf32>
      }
    }
  }
  return
}
