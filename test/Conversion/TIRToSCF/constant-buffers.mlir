// RUN: tir-opt %s --convert-tir-to-scf | FileCheck %s

// Constant data (T.allocate_const) is a constant global of the module, read
// where the buffer was; two buffers of one name get two globals.
// CHECK-DAG: memref.global "private" constant @__tir_const_table : memref<4xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK-DAG: memref.global "private" constant @__tir_const_table_0 : memref<2xi32> = dense<[7, 8]>
// CHECK-LABEL: func.func @consts(
// CHECK:       %[[T:.*]] = memref.get_global @__tir_const_table : memref<4xf32>
// CHECK:       %[[U:.*]] = memref.get_global @__tir_const_table_0 : memref<2xi32>
// CHECK:       memref.load %[[T]]
// CHECK:       memref.load %[[U]]
// CHECK-NOT:   tir.allocate_const
func.func @consts(%A: memref<4xf32>, %B: memref<2xi32>) {
  %t = tir.allocate_const {buffer_name = "table"} : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
  %u = tir.allocate_const {buffer_name = "table"} : memref<2xi32> = dense<[7, 8]>
  tir.for %i = 0 to 4 {
    %v = tir.load %t[%i] : memref<4xf32>
    tir.store %v, %A[%i] : memref<4xf32>
  }
  tir.for %j = 0 to 2 {
    %w = tir.load %u[%j] : memref<2xi32>
    tir.store %w, %B[%j] : memref<2xi32>
  }
  return
}
