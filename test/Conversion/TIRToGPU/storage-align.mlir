// RUN: tir-opt %s --convert-tir-to-gpu --split-input-file | FileCheck %s

// storage_align on a shared cache (TVM's (axis -2, factor 32, offset 8), as
// MetaSchedule's tensor-core tiles ask): the 64 x 32 tile compacted into the
// kernel gets rows of 40 elements, one flat allocation of its span
// (63 * 40 + 32 elements). The tile moves with the k loop: the accesses
// keep their coordinates through a view whose offset (-(64 by) * 40 - 32 k)
// puts the tile's start at the first element, with the padded strides.
// CHECK-LABEL: func.func @padded_tile
// CHECK:         gpu.launch
// CHECK-SAME:      workgroup(%[[FLAT:.*]] : memref<2552xf16, #gpu.address_space<workgroup>>)
// CHECK:           %[[BY:.*]] = arith.muli %{{.*}}, %c-2560
// CHECK:           %[[K:.*]] = arith.muli %{{.*}}, %c-32
// CHECK:           %[[OFF:.*]] = arith.addi %[[BY]], %[[K]]
// CHECK:           %[[TILE:.*]] = memref.reinterpret_cast %[[FLAT]] to offset: [%[[OFF]]], sizes: [256, 256], strides: [40, 1]
// CHECK:           tir.store %{{.*}}, %[[TILE]][%vi, %vj]
// CHECK:           tir.load %[[TILE]][%vi, %vj]
func.func @padded_tile(%A: memref<256x256xf16>, %B: memref<256x256xf16>) {
  %S = tir.alloc_buffer {buffer_name = "S"} : memref<256x256xf16, "shared">
  tir.for %by = 0 to 4 thread_binding<"blockIdx.x"> {
    tir.for %k = 0 to 8 {
      tir.for %t = 0 to 64 thread_binding<"threadIdx.x"> {
        tir.for %j = 0 to 32 {
          tir.block "S"(%vi = spatial(256, %by * 64 + %t), %vj = spatial(256, %k * 32 + %j)) attributes {annotations = {buffer_dim_align = [[0, -2, 32, 8]]}} {
            %a = tir.load %A[%vi, %vj] : memref<256x256xf16>
            tir.store %a, %S[%vi, %vj] : memref<256x256xf16, "shared">
          }
        }
      }
      tir.for %u = 0 to 64 thread_binding<"threadIdx.x"> {
        tir.for %j = 0 to 32 {
          tir.block "R"(%vi = spatial(256, %by * 64 + %u), %vj = spatial(256, %k * 32 + %j)) {
            %s = tir.load %S[%vi, %vj] : memref<256x256xf16, "shared">
            tir.store %s, %B[%vi, %vj] : memref<256x256xf16>
          }
        }
      }
    }
  }
  return
}

// -----

// A padded buffer in dynamic shared memory (over 48 KiB with the padding:
// 2 x 64 rows of 200 floats): the launch asks for the padded span, the
// buffer is a view of it with the padded strides, and the accesses,
// shifted by the thread's index, use it directly.
// CHECK-LABEL: func.func @padded_dynamic
// CHECK:         %[[SIZE:.*]] = arith.constant 102368 : i32
// CHECK:         gpu.launch
// CHECK-SAME:      dynamic_shared_memory_size %[[SIZE]]
// CHECK:           %[[BASE:.*]] = gpu.dynamic_shared_memory
// CHECK:           %[[FLAT:.*]] = memref.view %[[BASE]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<25592xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[S:.*]] = memref.reinterpret_cast %[[FLAT]] to offset: [0], sizes: [2, 64, 192], strides: [12800, 200, 1]
// CHECK:           tir.store %{{.*}}, %[[S]][%vh, %vi, %vj]
// CHECK:           tir.load %[[S]][%vh, -%vi + 63, %vj]
func.func @padded_dynamic(%A: memref<2x64x192xf32>, %B: memref<2x64x192xf32>) {
  %S = tir.alloc_buffer {buffer_name = "S"} : memref<2x64x192xf32, "shared">
  tir.for %b = 0 to 1 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 64 thread_binding<"threadIdx.x"> {
      tir.for %h = 0 to 2 {
        tir.for %j = 0 to 192 {
          tir.block "W"(%vh = spatial(2, %h), %vi = spatial(64, %t), %vj = spatial(192, %j)) attributes {annotations = {buffer_dim_align = [[0, 1, 32, 8]]}} {
            %a = tir.load %A[%vh, %vi, %vj] : memref<2x64x192xf32>
            tir.store %a, %S[%vh, %vi, %vj] : memref<2x64x192xf32, "shared">
          }
        }
      }
    }
    tir.for %u = 0 to 64 thread_binding<"threadIdx.x"> {
      tir.for %h = 0 to 2 {
        tir.for %j = 0 to 192 {
          tir.block "R"(%vh = spatial(2, %h), %vi = spatial(64, %u), %vj = spatial(192, %j)) {
            %s = tir.load %S[%vh, 63 - %vi, %vj] : memref<2x64x192xf32, "shared">
            tir.store %s, %B[%vh, %vi, %vj] : memref<2x64x192xf32>
          }
        }
      }
    }
  }
  return
}
