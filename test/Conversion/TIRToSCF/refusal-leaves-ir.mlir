// A refused conversion rewrites nothing: the IR printed after the failure
// still holds the tir block and loop, with no scf produced.
// RUN: not tir-opt %s --convert-tir-to-scf -mlir-print-ir-after-failure 2>&1 | FileCheck %s

// CHECK:      error: 'tir.for' op is bound to 'threadIdx.x'
// CHECK:      IR Dump After ConvertTIRToSCFPass Failed
// CHECK:      tir.for %{{.+}} = 0 to 32 thread_binding<"threadIdx.x"> {
// CHECK-NEXT:   tir.block "B"
// CHECK-NOT:  scf.
func.func @thread_bound(%A: memref<32xf32>) {
  tir.for %t = 0 to 32 thread_binding<"threadIdx.x"> {
    tir.block "B"(%vi = spatial(32, %t)) {
      %c = arith.constant 0.0 : f32
      tir.store %c, %A[%vi] : memref<32xf32>
    }
  }
  return
}
