// Vectorized loops that need more than contiguous vectors.

// B[i, j] = A[j, i] + 1 over 26 x 50: the vectorized j loop reads A with a
// stride (a gather) and runs 50 = 3 x 16 + 2 lanes (a masked last step).
func.func @transpose_add(%A: memref<50x26xf32> {tir.name = "A"},
                         %B: memref<26x50xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 26 {
    tir.for %j = 0 to 50 vectorized {
      tir.block "B"(%vi = spatial(26, %i), %vj = spatial(50, %j)) {
        %a = tir.load %A[%vj, %vi] : memref<50x26xf32>
        %one = arith.constant 1.0 : f32
        %b = arith.addf %a, %one : f32
        tir.store %b, %B[%vi, %vj] : memref<26x50xf32>
      }
    }
  }
  return
}

// B[i] = A[i] * 2 for i < 100, split as i = io * 8 + ii with io in 0..13:
// the split does not divide, so the block has a predicate, and the
// vectorized ii loop runs it under a lane mask.
func.func @split_tail(%A: memref<100xf32> {tir.name = "A"},
                      %B: memref<100xf32> {tir.name = "B"}) {
  tir.for %io = 0 to 13 {
    tir.for %ii = 0 to 8 vectorized {
      tir.block "B"(%vi = spatial(100, %io * 8 + %ii))
          where(%io * 8 + %ii < 100) {
        %a = tir.load %A[%vi] : memref<100xf32>
        %two = arith.constant 2.0 : f32
        %b = arith.mulf %a, %two : f32
        tir.store %b, %B[%vi] : memref<100xf32>
      }
    }
  }
  return
}
