// RUN: tir-opt %s --convert-tir-to-gpu | FileCheck %s
// RUN: tir-opt %s --tir-lower-to-nvvm | FileCheck %s --check-prefix=NVVM

// MultiLevelTiling's nest: blockIdx, vthread, threadIdx. The vthread loop
// runs serially in each thread of the kernel (annotations kept).
// CHECK-LABEL: func.func @tiles
// CHECK:         gpu.launch
// CHECK:           tir.for %{{.+}} = 0 to 2 annotations {keep = 1 : i64} {
// CHECK-NOT:     vthread
// The kernel: 32 threads per block, each storing its element of both
// virtual threads (the second 32 elements further).
// NVVM:          gpu.binary @tiles_kernel
// NVVM-SAME:     .maxntid 32, 1, 1
// NVVM-SAME:     %ctaid.x
// NVVM-SAME:     %tid.x
// NVVM-SAME:     st.global.b32 {{.*}}st.global.b32 \09[%rd{{[0-9]+}}+128]
func.func @tiles(%A: memref<256xf32> {tir.name = "A"}, %B: memref<256xf32> {tir.name = "B"}) {
  tir.for %b = 0 to 4 thread_binding<"blockIdx.x"> {
    tir.for %v = 0 to 2 thread_binding<"vthread.x"> annotations {keep = 1 : i64} {
      tir.for %t = 0 to 32 thread_binding<"threadIdx.x"> {
        tir.block "B"(%vi = spatial(256, %b * 64 + %v * 32 + %t)) {
          %x = tir.load %A[%vi] : memref<256xf32>
          %y = arith.addf %x, %x : f32
          tir.store %y, %B[%vi] : memref<256xf32>
        }
      }
    }
  }
  return
}
