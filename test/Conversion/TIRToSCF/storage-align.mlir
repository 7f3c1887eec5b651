// RUN: tir-opt %s --convert-tir-to-scf --split-input-file | FileCheck %s
// RUN: tir-opt %s --convert-tir-to-scf="compact-buffers" --split-input-file | FileCheck %s --check-prefix=COMPACT

// storage_align's annotation (the stride of B's dimension 0 is 1 modulo
// 8): B is allocated flat with its rows 17 apart, seen through a strided
// view that every access uses.
// CHECK-LABEL: func.func @aligned
// CHECK:         %[[FLAT:.+]] = memref.alloca() {alignment = 64 : i64} : memref<272xf32>
// CHECK-NEXT:    %[[B:.+]] = memref.reinterpret_cast %[[FLAT]] to offset: [0], sizes: [16, 16], strides: [17, 1] : memref<272xf32> to memref<16x16xf32, strided<[17, 1]>>
// CHECK:         memref.store %{{.+}}, %[[B]][%{{.+}}, %{{.+}}] : memref<16x16xf32, strided<[17, 1]>>
// CHECK:         memref.load %[[B]][%{{.+}}, %{{.+}}] : memref<16x16xf32, strided<[17, 1]>>
func.func @aligned(%A: memref<16x16xf32> {tir.name = "A"}, %C: memref<16x16xf32> {tir.name = "C"}) {
  %B = tir.alloc_buffer : memref<16x16xf32>
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 16 {
      tir.block "B"(%vi = spatial(16, %i), %vj = spatial(16, %j)) attributes {annotations = {buffer_dim_align = [[0, 0, 8, 1]]}} {
        %a = tir.load %A[%vi, %vj] : memref<16x16xf32>
        tir.store %a, %B[%vi, %vj] : memref<16x16xf32>
      }
    }
  }
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 16 {
      tir.block "C"(%vi = spatial(16, %i), %vj = spatial(16, %j)) {
        %b = tir.load %B[%vi, %vj] : memref<16x16xf32>
        tir.store %b, %C[%vi, %vj] : memref<16x16xf32>
      }
    }
  }
  return
}

// -----

// Two aligned dimensions of a 3-D buffer, the inner first (stride 4 -> 6
// for 2 modulo 4), then the outer over the padded rows (5 * 6 = 30 -> 32
// for 0 modulo 16). A tile computed per iteration of i is compacted to
// 1 x 5 x 4 first (one buffer, which the serial iterations reuse), and the
// alignment applies to that shape.
// CHECK-LABEL: func.func @two_axes
// CHECK:         memref.alloca() {alignment = 64 : i64} : memref<96xf32>
// CHECK-NEXT:    memref.reinterpret_cast %{{.+}} to offset: [0], sizes: [3, 5, 4], strides: [32, 6, 1]
// COMPACT-LABEL: func.func @two_axes
// COMPACT:         memref.alloca() {alignment = 64 : i64} : memref<32xf32>
// COMPACT-NEXT:    memref.reinterpret_cast %{{.+}} to offset: [0], sizes: [1, 5, 4], strides: [32, 6, 1]
func.func @two_axes(%A: memref<3x5x4xf32> {tir.name = "A"}, %C: memref<3x5x4xf32> {tir.name = "C"}) {
  %B = tir.alloc_buffer : memref<3x5x4xf32>
  tir.for %i = 0 to 3 {
    tir.for %j = 0 to 5 {
      tir.for %k = 0 to 4 {
        tir.block "B"(%vi = spatial(3, %i), %vj = spatial(5, %j), %vk = spatial(4, %k)) attributes {annotations = {buffer_dim_align = [[0, 1, 4, 2], [0, 0, 16, 0]]}} {
          %a = tir.load %A[%vi, %vj, %vk] : memref<3x5x4xf32>
          tir.store %a, %B[%vi, %vj, %vk] : memref<3x5x4xf32>
        }
      }
    }
    tir.for %j = 0 to 5 {
      tir.for %k = 0 to 4 {
        tir.block "C"(%vi = spatial(3, %i), %vj = spatial(5, %j), %vk = spatial(4, %k)) {
          %b = tir.load %B[%vi, %vj, %vk] : memref<3x5x4xf32>
          tir.store %b, %C[%vi, %vj, %vk] : memref<3x5x4xf32>
        }
      }
    }
  }
  return
}
