// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// A 127 x 127 x 127 matmul padded to 128 in every dimension: A and B are
// copied into zero-padded buffers before the block, which reads them and
// writes C_pad over 128^3; C_pad is copied back over the 127 x 127 the
// block covered.
// CHECK-LABEL: func.func @matmul
// CHECK:         %A_pad = tir.alloc_buffer : memref<128x128xf32>
// CHECK-NEXT:    %B_pad = tir.alloc_buffer : memref<128x128xf32>
// CHECK-NEXT:    %C_pad = tir.alloc_buffer : memref<128x128xf32>
// CHECK:         tir.for %[[I0:.+]] = 0 to 128 {
// CHECK-NEXT:      tir.for %[[I1:.+]] = 0 to 128 {
// CHECK-NEXT:        tir.block "A_pad"(%[[V0:.+]] = spatial(128, %[[I0]]), %[[V1:.+]] = spatial(128, %[[I1]]))
// CHECK:               arith.cmpi slt, %[[V0]], %{{.+}} : index
// CHECK:               arith.cmpi slt, %[[V1]], %{{.+}} : index
// CHECK:               scf.if
// CHECK:                 tir.load %arg0[%[[V0]], %[[V1]]]
// CHECK:               tir.store %{{.+}}, %A_pad[%[[V0]], %[[V1]]]
// CHECK:         tir.block "B_pad"
// CHECK:         tir.for %{{.+}} = 0 to 128 {
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 128 {
// CHECK-NEXT:        tir.for %{{.+}} = 0 to 128 {
// CHECK-NEXT:          tir.block "C"(%[[I:.+]] = spatial(128, %{{.+}}), %[[J:.+]] = spatial(128, %{{.+}}), %[[K:.+]] = reduce(128, %{{.+}}))
// CHECK:                 tir.store %{{.+}}, %C_pad[%[[I]], %[[J]]]
// CHECK:                 tir.load %A_pad[%[[I]], %[[K]]]
// CHECK:                 tir.load %B_pad[%[[K]], %[[J]]]
// CHECK:         tir.for %{{.+}} = 0 to 127 {
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 127 {
// CHECK-NEXT:        tir.block "C_pad"(%[[W0:.+]] = spatial(127, %{{.+}}), %[[W1:.+]] = spatial(127, %{{.+}}))
// CHECK-NEXT:          %[[X:.+]] = tir.load %C_pad[%[[W0]], %[[W1]]]
// CHECK-NEXT:          tir.store %[[X]], %arg2[%[[W0]], %[[W1]]]
func.func @matmul(%A: memref<127x127xf32> {tir.name = "A"}, %B: memref<127x127xf32> {tir.name = "B"}, %C: memref<127x127xf32> {tir.name = "C"}) {
  tir.for %i0 = 0 to 127 {
    tir.for %i1 = 0 to 127 {
      tir.for %i2 = 0 to 127 {
        tir.block "C"(%i = spatial(127, %i0), %j = spatial(127, %i1), %k = reduce(127, %i2)) {
          tir.init {
            %z = arith.constant 0.0 : f32
            tir.store %z, %C[%i, %j] : memref<127x127xf32>
          }
          %c = tir.load %C[%i, %j] : memref<127x127xf32>
          %a = tir.load %A[%i, %k] : memref<127x127xf32>
          %b = tir.load %B[%k, %j] : memref<127x127xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %c, %m : f32
          tir.store %s, %C[%i, %j] : memref<127x127xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.pad_einsum %b {padding = array<i64: 32, 32, 32>} : !transform.any_op
    transform.yield
  }
}

// -----

// A runtime extent: only the rows (n) are padded, to (n + 15) floordiv 16
// * 16; the copy into X_pad is guarded by `v0 < n`, the copy back runs
// over n.
// CHECK-LABEL: func.func @rows
// CHECK:         %[[N:.+]] = memref.dim %arg0, %{{.+}} : memref<?x8xf32>
// CHECK:         %[[P:.+]] = affine.apply #{{.+}}(%[[N]])
// CHECK:         %X_pad = tir.alloc_buffer(%[[P]]) : memref<?x8xf32>
// CHECK:         %Y_pad = tir.alloc_buffer(%[[P]]) : memref<?x8xf32>
// CHECK:         tir.for %{{.+}} = 0 to %[[P]] {
// CHECK:           tir.block "X_pad"
// CHECK:         tir.for %{{.+}} = 0 to %[[P]] {
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 8 {
// CHECK-NEXT:        tir.block "Y"(%{{.+}} = spatial(%[[P]], %{{.+}}), %{{.+}} = spatial(8, %{{.+}}))
// CHECK:         tir.for %{{.+}} = 0 to %[[N]] {
// CHECK:           tir.block "Y_pad"
func.func @rows(%X: memref<?x8xf32> {tir.name = "X"}, %Y: memref<?x8xf32> {tir.name = "Y"}) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %X, %c0 : memref<?x8xf32>
  tir.for %i = 0 to %n {
    tir.for %j = 0 to 8 {
      tir.block "Y"(%vi = spatial(%n, %i), %vj = spatial(8, %j)) {
        %x = tir.load %X[%vi, %vj] : memref<?x8xf32>
        %e = math.exp %x : f32
        tir.store %e, %Y[%vi, %vj] : memref<?x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "Y" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.pad_einsum %b {padding = array<i64: 16, 4>} : !transform.any_op
    transform.yield
  }
}
