// RUN: tir-opt %s --tir-lower-init --split-input-file | FileCheck %s
// RUN: tir-opt %tir_src_root/examples/matmul.mlir --tir-lower-init | FileCheck %s --check-prefix=MATMUL

// MATMUL-LABEL: func.func @matmul
// MATMUL-SAME:    (%{{.+}}: memref<128x128xf32> {tir.name = "A"}, %{{.+}}: memref<128x128xf32> {tir.name = "B"}, %[[C:.+]]: memref<128x128xf32> {tir.name = "C"})
// MATMUL:         tir.block "C"(%[[VI:.+]] = spatial(128, %{{.+}}), %[[VJ:.+]] = spatial(128, %{{.+}}), %[[VK:.+]] = reduce(128, %{{.+}})) {
// MATMUL-NEXT:      %[[C0:.+]] = arith.constant 0 : index
// MATMUL-NEXT:      %[[FIRST:.+]] = arith.cmpi eq, %[[VK]], %[[C0]] : index
// MATMUL-NEXT:      scf.if %[[FIRST]] {
// MATMUL-NEXT:        %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// MATMUL-NEXT:        tir.store %[[ZERO]], %[[C]][%[[VI]], %[[VJ]]]
// MATMUL-NEXT:      }
// MATMUL-NEXT:      tir.load %[[C]][%[[VI]], %[[VJ]]]
// MATMUL-NOT:       tir.init

// Several reduce variables (one with a non-zero start, one dynamic): the
// init runs where all of them start their domains.
// CHECK-LABEL: func.func @window
// CHECK-SAME:    (%[[LO:.+]]: index, %[[A:.+]]: memref<8x16xf32>, %[[O:.+]]: memref<8xf32>)
// CHECK:         tir.block "S"(%[[VI:.+]] = spatial(8, %{{.+}}), %[[R1:.+]] = reduce(2 : 4, %{{.+}}), %[[R2:.+]] = reduce(%[[LO]] : 8, %{{.+}})) {
// CHECK-NEXT:      %[[C2:.+]] = arith.constant 2 : index
// CHECK-NEXT:      %[[E1:.+]] = arith.cmpi eq, %[[R1]], %[[C2]] : index
// CHECK-NEXT:      %[[E2:.+]] = arith.cmpi eq, %[[R2]], %[[LO]] : index
// CHECK-NEXT:      %[[BOTH:.+]] = arith.andi %[[E1]], %[[E2]] : i1
// CHECK-NEXT:      scf.if %[[BOTH]] {
// CHECK-NEXT:        %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:        tir.store %[[Z]], %[[O]][%[[VI]]]
// CHECK-NEXT:      }
func.func @window(%lo: index, %A: memref<8x16xf32>, %O: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.for %r1 = 2 to 4 {
      tir.for %r2 = %lo to 8 {
        tir.block "S"(%vi = spatial(8, %i), %vr1 = reduce(2 : 4, %r1), %vr2 = reduce(%lo : 8, %r2)) {
          tir.init {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %O[%vi] : memref<8xf32>
          }
          %acc = tir.load %O[%vi] : memref<8xf32>
          %x = tir.load %A[%vi, %vr1 * 2 + %vr2] : memref<8x16xf32>
          %s = arith.addf %acc, %x : f32
          tir.store %s, %O[%vi] : memref<8xf32>
        }
      }
    }
  }
  return
}

// -----

// A block without init is left alone.
// CHECK-LABEL: func.func @no_init
// CHECK:         tir.block "B"(%{{.+}} = spatial(8, %{{.+}})) {
// CHECK-NEXT:      arith.constant 1.000000e+00 : f32
// CHECK-NOT:       scf.if
func.func @no_init(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %one = arith.constant 1.0 : f32
      tir.store %one, %A[%vi] : memref<8xf32>
    }
  }
  return
}
