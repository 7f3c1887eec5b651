// RUN: tir-opt %s --convert-tir-to-gpu --convert-tir-to-scf=drop-storage-scopes --tir-vectorize-loops 2>&1 | FileCheck %s --implicit-check-not=warning

// A cooperative copy into shared memory as bench/gpu/programs.py's
// spread_b lays out the tile of B: at each step k, 2 rows of 128 columns,
// the block's 4 x 16 threads each copying 4 neighbours (v, vectorized);
// column c of row r goes to S[r, c floordiv 128, (c mod 8) floordiv 4,
// (c mod 128) floordiv 8, c mod 4], seen through a view that follows k.
// Over the launch's thread ranges (tx < 16, ty < 4) and the lane's
// (v < 4), only the last index moves with v: (64 (ty mod 2) + 4 tx + v)
// floordiv 128 is 0, and v neither carries into (4 tx + v) floordiv 8 nor
// out of mod 8. So the copy is one vector load and one vector store, not
// left scalar (with a "vectorized loop left scalar" warning).
// CHECK-LABEL: func.func @spread_copy
// CHECK:         gpu.launch
// CHECK:           scf.for
// CHECK:             %[[V:.*]] = vector.load %{{.*}} : memref<4x256xf32>, vector<4xf32>
// CHECK:             vector.store %[[V]], %{{.*}}#gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-NOT:       memref.store {{.*}}workgroup
module {
  func.func @spread_copy(%arg0: memref<4x256xf32> {tir.name = "A"}, %arg1: memref<4x256xf32> {tir.name = "B"}) {
    %S = tir.alloc_buffer : memref<4x2x2x16x4xf32, "shared">
    tir.for %bx = 0 to 2 thread_binding<"blockIdx.x"> {
      tir.for %k = 0 to 2 {
        tir.for %ty = 0 to 4 thread_binding<"threadIdx.y"> {
          tir.for %tx = 0 to 16 thread_binding<"threadIdx.x"> {
            tir.for %v = 0 to 4 vectorized {
              tir.block "S"(%r = spatial(4, %k * 2 + %ty floordiv 2), %c = spatial(256, %bx * 128 + %ty mod 2 * 64 + %tx * 4 + %v)) reads(%arg0[%r, %c] : memref<4x256xf32>) writes(%S[%r, %c floordiv 128, (%c mod 8) floordiv 4, (%c mod 128) floordiv 8, %c mod 4] : memref<4x2x2x16x4xf32, "shared">) {
                %0 = tir.load %arg0[%r, %c] : memref<4x256xf32>
                tir.store %0, %S[%r, %c floordiv 128, (%c mod 8) floordiv 4, (%c mod 128) floordiv 8, %c mod 4] : memref<4x2x2x16x4xf32, "shared">
              }
            }
          }
        }
        tir.for %ty = 0 to 4 thread_binding<"threadIdx.y"> {
          tir.for %tx = 0 to 16 thread_binding<"threadIdx.x"> {
            tir.for %v = 0 to 4 {
              tir.block "B"(%r = spatial(4, %k * 2 + %ty floordiv 2), %c = spatial(256, %bx * 128 + %ty mod 2 * 64 + %tx * 4 + %v)) reads(%S[%r, %c floordiv 128, (%c mod 8) floordiv 4, (%c mod 128) floordiv 8, %c mod 4] : memref<4x2x2x16x4xf32, "shared">) writes(%arg1[%r, %c] : memref<4x256xf32>) {
                %0 = tir.load %S[%r, %c floordiv 128, (%c mod 8) floordiv 4, (%c mod 128) floordiv 8, %c mod 4] : memref<4x2x2x16x4xf32, "shared">
                tir.store %0, %arg1[%r, %c] : memref<4x256xf32>
              }
            }
          }
        }
      }
    }
    return
  }
}
