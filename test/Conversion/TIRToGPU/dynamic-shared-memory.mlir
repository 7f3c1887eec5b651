// RUN: tir-opt %s --convert-tir-to-gpu --split-input-file | FileCheck %s

// 64 KiB of shared memory, over the 48 KiB a kernel may declare
// statically: the buffer is a view of the launch's dynamic shared memory,
// which the launch asks for.
// CHECK-LABEL: func.func @over_48k
// CHECK:         %[[SIZE:.*]] = arith.constant 65536 : i32
// CHECK:         gpu.launch
// CHECK-SAME:      dynamic_shared_memory_size %[[SIZE]]
// CHECK-NOT:       workgroup(
// CHECK:           %[[BASE:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK:           memref.view %[[BASE]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128x128xf32, #gpu.address_space<workgroup>>
func.func @over_48k(%A: memref<128x128xf32>, %B: memref<128x128xf32>) {
  %S = tir.alloc_buffer {buffer_name = "S"} : memref<128x128xf32, "shared">
  tir.for %b = 0 to 1 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 128 thread_binding<"threadIdx.x"> {
      tir.for %j = 0 to 128 {
        tir.block "W"(%vi = spatial(128, %t), %vj = spatial(128, %j)) {
          %a = tir.load %A[%vi, %vj] : memref<128x128xf32>
          tir.store %a, %S[%vi, %vj] : memref<128x128xf32, "shared">
        }
      }
    }
    tir.for %u = 0 to 128 thread_binding<"threadIdx.x"> {
      tir.for %j = 0 to 128 {
        tir.block "R"(%vi = spatial(128, %u), %vj = spatial(128, %j)) {
          %s = tir.load %S[127 - %vi, %vj] : memref<128x128xf32, "shared">
          tir.store %s, %B[%vi, %vj] : memref<128x128xf32>
        }
      }
    }
  }
  return
}

// -----

// A "shared.dyn" buffer is dynamic shared memory whatever its size; a
// "shared" one beside it stays static. Each dynamic buffer starts at a
// 16-byte boundary (P: 1024 bytes, then Q).
// CHECK-LABEL: func.func @shared_dyn
// CHECK:         %[[SIZE:.*]] = arith.constant 1280 : i32
// CHECK:         gpu.launch
// CHECK-SAME:      dynamic_shared_memory_size %[[SIZE]]
// CHECK-SAME:      workgroup(%{{.*}} : memref<16xf32, #gpu.address_space<workgroup>>)
// CHECK:           %[[BASE:.*]] = gpu.dynamic_shared_memory
// CHECK-DAG:       %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:       %[[C1024:.*]] = arith.constant 1024 : index
// CHECK-DAG:       memref.view %[[BASE]][%[[C0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK-DAG:       memref.view %[[BASE]][%[[C1024]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
func.func @shared_dyn(%A: memref<16x16xf32>, %B: memref<16x16xf32>) {
  tir.for %b = 0 to 1 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 16 thread_binding<"threadIdx.x"> {
      tir.block "root"() {
        %P = tir.alloc_buffer {buffer_name = "P"} : memref<16x16xf32, "shared.dyn">
        %Q = tir.alloc_buffer {buffer_name = "Q"} : memref<64xf32, "shared.dyn">
        %R = tir.alloc_buffer {buffer_name = "R"} : memref<16xf32, "shared">
        tir.for %j = 0 to 16 {
          tir.block "W"(%vi = spatial(16, %t), %vj = spatial(16, %j)) {
            %a = tir.load %A[%vi, %vj] : memref<16x16xf32>
            tir.store %a, %P[%vi, %vj] : memref<16x16xf32, "shared.dyn">
            tir.store %a, %Q[%vj] : memref<64xf32, "shared.dyn">
            tir.store %a, %R[%vi] : memref<16xf32, "shared">
          }
        }
        tir.for %j = 0 to 16 {
          tir.block "R"(%vi = spatial(16, %t), %vj = spatial(16, %j)) {
            %p = tir.load %P[%vj, %vi] : memref<16x16xf32, "shared.dyn">
            %q = tir.load %Q[%vj] : memref<64xf32, "shared.dyn">
            %r = tir.load %R[15 - %vi] : memref<16xf32, "shared">
            %s = arith.addf %p, %q : f32
            %u = arith.addf %s, %r : f32
            tir.store %u, %B[%vi, %vj] : memref<16x16xf32>
          }
        }
      }
    }
  }
  return
}
