// RUN: tir-opt %s --convert-tir-to-scf="compact-buffers" --canonicalize --split-input-file | FileCheck %s
// RUN: tir-opt %s --convert-tir-to-scf --canonicalize --split-input-file | FileCheck %s --check-prefix=OFF

// A local accumulator of the whole matrix, used in 2 x 4 tiles under a
// parallel tile loop: one 2 x 4 buffer per iteration of the parallel loop
// (per thread), on its stack, indices shifted by the tile's start
// (i0 * 2, j0 * 4).
// CHECK-LABEL: func.func @tile_accumulator
// CHECK-NOT:     memref.alloc
// CHECK:         scf.for %[[J0:.+]] = %{{.+}} to %{{.+}} step
// CHECK:           scf.parallel (%[[I0:.+]]) =
// CHECK-NEXT:        %[[ACC:.+]] = memref.alloca() : memref<2x4xf32, "local">
// CHECK:             scf.for %[[I1:.+]] = %{{.+}} to %{{.+}} step
// CHECK-NEXT:          scf.for %[[J1:.+]] = %{{.+}} to %{{.+}} step
// CHECK:                 memref.store %{{.+}}, %[[ACC]][%[[I1]], %[[J1]]] : memref<2x4xf32, "local">
// CHECK:             scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step
// CHECK:                   memref.load %[[ACC]][%[[I1b:.+]], %[[J1b:.+]]] : memref<2x4xf32, "local">
// CHECK:                   memref.store %{{.+}}, %[[ACC]][%[[I1b]], %[[J1b]]] : memref<2x4xf32, "local">
// CHECK:                 memref.load %[[ACC]][%{{.+}}, %{{.+}}] : memref<2x4xf32, "local">
// CHECK-NEXT:            memref.store %{{.+}}, %arg2[%{{.+}}, %{{.+}}] : memref<8x8xf32>
// OFF-LABEL:   func.func @tile_accumulator
// OFF:           memref.alloca() : memref<8x8xf32, "local">
// OFF-NEXT:      scf.for
func.func @tile_accumulator(%A: memref<8x8xf32>, %B: memref<8x8xf32>,
                            %C: memref<8x8xf32>) {
  %Cl = tir.alloc_buffer : memref<8x8xf32, "local">
  tir.for %j0 = 0 to 2 {
    tir.for %i0 = 0 to 4 parallel {
      tir.for %i1 = 0 to 2 {
        tir.for %j1 = 0 to 4 {
          tir.block "C_init"(%vi = spatial(8, %i0 * 2 + %i1),
                             %vj = spatial(8, %j0 * 4 + %j1)) {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %Cl[%vi, %vj] : memref<8x8xf32, "local">
          }
        }
      }
      tir.for %k = 0 to 8 {
        tir.for %i1 = 0 to 2 {
          tir.for %j1 = 0 to 4 {
            tir.block "C_update"(%vi = spatial(8, %i0 * 2 + %i1),
                                 %vj = spatial(8, %j0 * 4 + %j1),
                                 %vk = reduce(8, %k)) {
              %c = tir.load %Cl[%vi, %vj] : memref<8x8xf32, "local">
              %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
              %b = tir.load %B[%vk, %vj] : memref<8x8xf32>
              %p = arith.mulf %a, %b : f32
              %s = arith.addf %c, %p : f32
              tir.store %s, %Cl[%vi, %vj] : memref<8x8xf32, "local">
            }
          }
        }
      }
      tir.for %ax0 = 0 to 2 {
        tir.for %ax1 = 0 to 4 {
          tir.block "write_back"(%vi = spatial(8, %i0 * 2 + %ax0),
                                 %vj = spatial(8, %j0 * 4 + %ax1)) {
            %v = tir.load %Cl[%vi, %vj] : memref<8x8xf32, "local">
            tir.store %v, %C[%vi, %vj] : memref<8x8xf32>
          }
        }
      }
    }
  }
  return
}

// -----

// A packed copy whose panel j0 is one slice of the first dimension: a
// 1 x 16 x 4 buffer, which the serial iterations of j0 reuse (allocated
// where the whole one was), and the consumer's floordiv / mod index, over
// the loop ranges, becomes [0, k, j1] (no division left).
// CHECK-LABEL: func.func @packed_panel
// CHECK:         %[[P:.+]] = memref.alloca() {alignment = 64 : i64} : memref<1x16x4xf32>
// CHECK-NEXT:    scf.for %[[J0:.+]] = %{{.+}} to %{{.+}} step
// CHECK:           memref.store %{{.+}}, %[[P]][%c0, %{{.+}}, %{{.+}}] : memref<1x16x4xf32>
// CHECK:           memref.load %[[P]][%c0, %{{.+}}, %{{.+}}] : memref<1x16x4xf32>
// CHECK-NOT:     arith.divsi
// CHECK-NOT:     arith.remsi
// CHECK:         return
func.func @packed_panel(%B: memref<16x8xf32>, %O: memref<8xf32>) {
  %Bp = tir.alloc_buffer : memref<2x16x4xf32>
  tir.for %j0 = 0 to 2 {
    tir.for %k = 0 to 16 {
      tir.for %j1 = 0 to 4 {
        tir.block "pack"(%vo = spatial(2, %j0), %vk = spatial(16, %k),
                         %vi = spatial(4, %j1)) {
          %b = tir.load %B[%vk, %vo * 4 + %vi] : memref<16x8xf32>
          tir.store %b, %Bp[%vo, %vk, %vi] : memref<2x16x4xf32>
        }
      }
    }
    tir.for %j1 = 0 to 4 {
      tir.for %k = 0 to 16 {
        tir.block "sum"(%vj = spatial(8, %j0 * 4 + %j1), %vk = reduce(16, %k)) {
          tir.init {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %O[%vj] : memref<8xf32>
          }
          %o = tir.load %O[%vj] : memref<8xf32>
          %b = tir.load %Bp[%vj floordiv 4, %vk, %vj mod 4] : memref<2x16x4xf32>
          %s = arith.addf %o, %b : f32
          tir.store %s, %O[%vj] : memref<8xf32>
        }
      }
    }
  }
  return
}

// -----

// Every iteration of %m uses the same 4 elements (the value of one
// iteration is read by the next): the buffer stays where it is, whole.
// CHECK-LABEL: func.func @carried
// CHECK:         memref.alloca() {alignment = 64 : i64} : memref<4xf32>
// CHECK:         scf.for
func.func @carried(%O: memref<4xf32>) {
  %T = tir.alloc_buffer : memref<4xf32>
  tir.for %m = 0 to 3 {
    tir.for %l = 0 to 4 {
      tir.block "acc"(%vm = reduce(3, %m), %vl = spatial(4, %l)) {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %T[%vl] : memref<4xf32>
        }
        %t = tir.load %T[%vl] : memref<4xf32>
        %one = arith.constant 1.0 : f32
        %s = arith.addf %t, %one : f32
        tir.store %s, %T[%vl] : memref<4xf32>
      }
    }
  }
  tir.for %l = 0 to 4 {
    tir.block "out"(%vl = spatial(4, %l)) {
      %t = tir.load %T[%vl] : memref<4xf32>
      tir.store %t, %O[%vl] : memref<4xf32>
    }
  }
  return
}

// -----

// Parts that move by 4 under both %m and %l (start m * 4 + l * 4, extent
// 4): iteration (0, 1) and (1, 0) share their part, so neither loop can
// have a buffer per iteration.
// CHECK-LABEL: func.func @overlapping
// CHECK:         memref.alloca() {alignment = 64 : i64} : memref<12xf32>
// CHECK:         scf.for
func.func @overlapping(%O: memref<12xf32>) {
  %T = tir.alloc_buffer : memref<12xf32>
  tir.for %m = 0 to 2 {
    tir.for %l = 0 to 2 {
      tir.for %e = 0 to 4 {
        tir.block "w"(%v = spatial(12, %m * 4 + %l * 4 + %e)) {
          %t = tir.load %T[%v] : memref<12xf32>
          %one = arith.constant 1.0 : f32
          %s = arith.addf %t, %one : f32
          tir.store %s, %T[%v] : memref<12xf32>
          tir.store %s, %O[%v] : memref<12xf32>
        }
      }
    }
  }
  return
}

// -----

// Iterations of a vectorized loop run at once, in lanes: they cannot share
// one compacted buffer, so the buffer stays whole.
// CHECK-LABEL: func.func @vectorized
// CHECK:         memref.alloca() {alignment = 64 : i64} : memref<16xf32>
// CHECK:         scf.for
func.func @vectorized(%A: memref<16xf32>, %B: memref<16xf32>) {
  %T = tir.alloc_buffer : memref<16xf32>
  tir.for %i = 0 to 16 vectorized {
    tir.block "t"(%v = spatial(16, %i)) {
      %a = tir.load %A[%v] : memref<16xf32>
      tir.store %a, %T[%v] : memref<16xf32>
    }
    tir.block "b"(%v = spatial(16, %i)) {
      %t = tir.load %T[%v] : memref<16xf32>
      %s = arith.addf %t, %t : f32
      tir.store %s, %B[%v] : memref<16xf32>
    }
  }
  return
}

// -----

// A loop of one iteration around the tile loop (a batch of one): the
// write-back, as reverse_compute_at places it, binds the batch to 0 where
// the accumulating block binds the loop's variable: while that variable
// stayed symbolic, the two regions differed by it and the union had no
// constant extent. The variable has one value, 0: the buffer is one
// tile (1 x 1 x 4 x 4, transposed to NCHW on its way out) per iteration of
// the parallel row loop.
// CHECK-LABEL: func.func @batch_of_one
// CHECK:         scf.parallel
// CHECK-NEXT:      memref.alloca() : memref<1x1x4x4xf32, "local">
// OFF-LABEL:   func.func @batch_of_one
// OFF:           memref.alloca() : memref<1x2x8x4xf32, "local">
func.func @batch_of_one(%A: memref<1x2x8x4xf32>, %O: memref<1x4x2x8xf32>) {
  %Ol = tir.alloc_buffer : memref<1x2x8x4xf32, "local">
  tir.for %b = 0 to 1 {
    tir.for %y = 0 to 2 parallel {
      tir.for %x0 = 0 to 2 {
        tir.for %x1 = 0 to 4 {
          tir.for %f = 0 to 4 {
            tir.block "acc"(%vb = spatial(1, %b), %vy = spatial(2, %y), %vx = spatial(8, %x0 * 4 + %x1), %vf = spatial(4, %f)) reads(%Ol[%vb, %vy, %vx, %vf], %A[%vb, %vy, %vx, %vf] : memref<1x2x8x4xf32, "local">, memref<1x2x8x4xf32>) writes(%Ol[%vb, %vy, %vx, %vf] : memref<1x2x8x4xf32, "local">) {
              %o = tir.load %Ol[%vb, %vy, %vx, %vf] : memref<1x2x8x4xf32, "local">
              %a = tir.load %A[%vb, %vy, %vx, %vf] : memref<1x2x8x4xf32>
              %s = arith.addf %a, %o : f32
              tir.store %s, %Ol[%vb, %vy, %vx, %vf] : memref<1x2x8x4xf32, "local">
            }
          }
        }
        tir.for %ax0 = 0 to 4 {
          tir.for %ax1 = 0 to 4 {
            tir.block "write_back"(%v0 = spatial(1, 0), %v1 = spatial(4, %ax0), %v2 = spatial(2, %y), %v3 = spatial(8, %x0 * 4 + %ax1)) reads(%Ol[%v0, %v2, %v3, %v1] : memref<1x2x8x4xf32, "local">) writes(%O[%v0, %v1, %v2, %v3] : memref<1x4x2x8xf32>) {
              %v = tir.load %Ol[%v0, %v2, %v3, %v1] : memref<1x2x8x4xf32, "local">
              tir.store %v, %O[%v0, %v1, %v2, %v3] : memref<1x4x2x8xf32>
            }
          }
        }
      }
    }
  }
  return
}
