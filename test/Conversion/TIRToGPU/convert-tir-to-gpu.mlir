// RUN: tir-opt %s --convert-tir-to-gpu --split-input-file | FileCheck %s

// A kernel: the outermost thread-bound loop and the ones inside it become
// one gpu.launch sized by their extents; each loop becomes its thread's
// index, and the block inside stays tir.
// CHECK-LABEL: func.func @vector_add
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C8]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]]) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C128]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]])
// CHECK-NEXT:      tir.block "C"(%{{.*}} = spatial(1000, %[[BX]] * 128 + %[[TX]])) where(%[[BX]] * 128 + %[[TX]] < 1000)
// CHECK:           gpu.terminator
// CHECK-NOT:     tir.for
func.func @vector_add(%A: memref<1000xf32>, %C: memref<1000xf32>) {
  tir.for %bx = 0 to 8 thread_binding<"blockIdx.x"> {
    tir.for %tx = 0 to 128 thread_binding<"threadIdx.x"> {
      tir.block "C"(%vi = spatial(1000, %bx * 128 + %tx)) where(%bx * 128 + %tx < 1000) {
        %a = tir.load %A[%vi] : memref<1000xf32>
        tir.store %a, %C[%vi] : memref<1000xf32>
      }
    }
  }
  return
}

// -----

// Two loops bound to threadIdx.x one after another in one kernel: the
// block is as large as the larger (64); the smaller runs under
// `if tx < 32`. A loop from 4 starts its index at 4. A serial loop inside
// the kernel stays; one around it runs on the host, launching the kernel
// at each iteration. Sibling thread-bound loops outside any kernel would
// be two kernels.
// CHECK-LABEL: func.func @shared_tag
// CHECK:         tir.for %{{.*}} = 0 to 2 {
// CHECK-DAG:       %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:       %[[C64:.*]] = arith.constant 64 : index
// CHECK:           gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C1]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]]) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C64]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]])
// CHECK:             %[[I:.*]] = arith.addi %c4, %[[TX]] : index
// CHECK:             tir.for %{{.*}} = 0 to 3 {
// CHECK:               tir.block "A"(%{{.*}} = spatial(68, %[[I]]))
// CHECK:             %[[IN:.*]] = arith.cmpi ult, %[[TX]], %c32 : index
// CHECK-NEXT:        scf.if %[[IN]] {
// CHECK-NEXT:          tir.block "B"(%{{.*}} = spatial(32, %[[TX]]))
// CHECK-NOT:       gpu.launch
func.func @shared_tag(%A: memref<68xf32>, %B: memref<32xf32>) {
  %one = arith.constant 1.0 : f32
  tir.for %r = 0 to 2 {
    tir.for %b = 0 to 1 thread_binding<"blockIdx.x"> {
      tir.for %t = 4 to 68 thread_binding<"threadIdx.x"> {
        tir.for %k = 0 to 3 {
          tir.block "A"(%vi = spatial(68, %t)) {
            tir.store %one, %A[%vi] : memref<68xf32>
          }
        }
      }
      tir.for %u = 0 to 32 thread_binding<"threadIdx.x"> {
        tir.block "B"(%vi = spatial(32, %u)) {
          tir.store %one, %B[%vi] : memref<32xf32>
        }
      }
    }
  }
  return
}

// -----

// A runtime extent defined before the kernel sizes its dimension.
// CHECK-LABEL: func.func @dynamic
// CHECK:         gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %arg1, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c32, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
func.func @dynamic(%A: memref<?x32xf32>, %n: index) {
  %one = arith.constant 1.0 : f32
  tir.for %b = 0 to %n thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 32 thread_binding<"threadIdx.x"> {
      tir.block "A"(%vi = spatial(%n, %b), %vj = spatial(32, %t)) {
        tir.store %one, %A[%vi, %vj] : memref<?x32xf32>
      }
    }
  }
  return
}
