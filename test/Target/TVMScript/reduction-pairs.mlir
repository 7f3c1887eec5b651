// RUN: tir-translate --tir-to-tvmscript %s | FileCheck %s --strict-whitespace
// Lines that start with {{^}} check Python's indentation exactly.

// A reduction of two buffers stores the second combined value after the
// first store: a value that reads a buffer stored before its use is named
// where it is computed, so the printed program reads the buffer's value
// from before the update, as the IR does.
// CHECK-LABEL: {{^}}def pair(V: T.Buffer((4,), "float32"), I: T.Buffer((4,), "int32"), X: T.Buffer((4, 8), "float32")):
// CHECK:       {{^}}            v = T.Select((V[vi] <= X[vi, vk]), I[vi], T.Cast("int32", vk))
// CHECK-NEXT:  {{^}}            v_1 = V[vi]
// CHECK-NEXT:  {{^}}            v_2 = X[vi, vk]
// CHECK-NEXT:  {{^}}            V[vi] = T.Select((v_1 <= v_2), v_1, v_2)
// CHECK-NEXT:  {{^}}            I[vi] = v
func.func @pair(%V: memref<4xf32> {tir.name = "V"}, %I: memref<4xi32> {tir.name = "I"}, %X: memref<4x8xf32> {tir.name = "X"}) {
  tir.for %i = 0 to 4 {
    tir.for %k = 0 to 8 {
      tir.block "argmin"(%vi = spatial(4, %i), %vk = reduce(8, %k)) {
        %v = tir.load %V[%vi] : memref<4xf32>
        %x = tir.load %X[%vi, %vk] : memref<4x8xf32>
        %keep = arith.cmpf ole, %v, %x : f32
        %cur = tir.load %I[%vi] : memref<4xi32>
        %kk = arith.index_cast %vk : index to i32
        %ni = arith.select %keep, %cur, %kk : i32
        %v2 = tir.load %V[%vi] : memref<4xf32>
        %x2 = tir.load %X[%vi, %vk] : memref<4x8xf32>
        %keep2 = arith.cmpf ole, %v2, %x2 : f32
        %nv = arith.select %keep2, %v2, %x2 : f32
        tir.store %nv, %V[%vi] : memref<4xf32>
        tir.store %ni, %I[%vi] : memref<4xi32>
      }
    }
  }
  return
}
