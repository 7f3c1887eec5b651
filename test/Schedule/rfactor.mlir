// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// rfactor by the innermost part of a split reduction: the rfactor block
// reduces into C_rf (the loop's extent as dimension 0) under copies of all
// the loops, its reduce variable vk replaced by the new spatial vki and
// reduce vko; the write-back block (the block itself) keeps the spatial
// loops and the rfactor loop and reduces C_rf into C.
// CHECK-LABEL: func.func @matmul
// CHECK:         %[[RF:C_rf]] = tir.alloc_buffer : memref<32x128x128xf32>
// CHECK:         tir.for %[[I0:.+]] = 0 to 128 {
// CHECK-NEXT:      tir.for %[[I1:.+]] = 0 to 128 {
// CHECK-NEXT:        tir.for %[[KO:.+]] = 0 to 4 {
// CHECK-NEXT:          tir.for %[[KI:.+]] = 0 to 32 {
// CHECK-NEXT:            tir.block "update_rf"(%[[VKI:.+]] = spatial(32, %[[KI]]), %[[VI:.+]] = spatial(128, %[[I0]]), %[[VJ:.+]] = spatial(128, %[[I1]]), %[[VKO:.+]] = reduce(4, %[[KO]]))
// CHECK-SAME:                reads(%{{.+}}[%[[VI]], %[[VKI]] + %[[VKO]] * 32], %{{.+}}[%[[VJ]], %[[VKI]] + %[[VKO]] * 32]
// CHECK-SAME:                writes(%[[RF]][%[[VKI]], %[[VI]], %[[VJ]]] : memref<32x128x128xf32>) {
// CHECK-NEXT:              tir.init {
// CHECK-NEXT:                %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:                tir.store %[[Z]], %[[RF]][%[[VKI]], %[[VI]], %[[VJ]]]
// CHECK-NEXT:              }
// CHECK-NEXT:              %[[A:.+]] = tir.load %{{.+}}[%[[VI]], %[[VKI]] + %[[VKO]] * 32]
// CHECK-NEXT:              %[[B:.+]] = tir.load %{{.+}}[%[[VJ]], %[[VKI]] + %[[VKO]] * 32]
// CHECK-NEXT:              %[[P:.+]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:              %[[X:.+]] = tir.load %[[RF]][%[[VKI]], %[[VI]], %[[VJ]]]
// CHECK-NEXT:              %[[S:.+]] = arith.addf %[[X]], %[[P]] : f32
// CHECK-NEXT:              tir.store %[[S]], %[[RF]][%[[VKI]], %[[VI]], %[[VJ]]]
// CHECK:         tir.for %[[J0:.+]] = 0 to 128 {
// CHECK-NEXT:      tir.for %[[J1:.+]] = 0 to 128 {
// CHECK-NEXT:        tir.for %[[JK:.+]] = 0 to 32 {
// CHECK-NEXT:          tir.block "update"(%[[WK:.+]] = reduce(32, %[[JK]]), %[[WI:.+]] = spatial(128, %[[J0]]), %[[WJ:.+]] = spatial(128, %[[J1]]))
// CHECK-SAME:              reads(%[[RF]][%[[WK]], %[[WI]], %[[WJ]]] : memref<32x128x128xf32>)
// CHECK-SAME:              writes(%[[C:.+]][%[[WI]], %[[WJ]]] : memref<128x128xf32>) {
// CHECK-NEXT:            tir.init {
// CHECK:                 %[[CX:.+]] = tir.load %[[C]][%[[WI]], %[[WJ]]]
// CHECK-NEXT:            %[[CY:.+]] = tir.load %[[RF]][%[[WK]], %[[WI]], %[[WJ]]]
// CHECK-NEXT:            %[[CS:.+]] = arith.addf %[[CX]], %[[CY]] : f32
// CHECK-NEXT:            tir.store %[[CS]], %[[C]][%[[WI]], %[[WJ]]]
func.func @matmul(%A: memref<128x128xf32>, %B: memref<128x128xf32>, %C: memref<128x128xf32> {tir.name = "C"}) {
  tir.for %i0 = 0 to 128 {
    tir.for %i1 = 0 to 128 {
      tir.for %ko = 0 to 4 {
        tir.for %ki = 0 to 32 {
          tir.block "update"(%vi = spatial(128, %i0), %vj = spatial(128, %i1), %vk = reduce(128, %ko * 32 + %ki)) {
            tir.init {
              %zero = arith.constant 0.0 : f32
              tir.store %zero, %C[%vi, %vj] : memref<128x128xf32>
            }
            %c = tir.load %C[%vi, %vj] : memref<128x128xf32>
            %a = tir.load %A[%vi, %vk] : memref<128x128xf32>
            %b = tir.load %B[%vj, %vk] : memref<128x128xf32>
            %p = arith.mulf %a, %b : f32
            %s = arith.addf %c, %p : f32
            tir.store %s, %C[%vi, %vj] : memref<128x128xf32>
          }
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "update" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %ko, %ki = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %rf = transform.tir.rfactor %ki {factor_axis = 0} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// An argmax pair by the outer part of its split (factor_axis -1: the last
// dimension): two partial-result buffers, one init storing both
// identities, the combiner's shared comparison built once; the replaced
// reduce variable vk is vko * 16 + vki where the body uses it as a value.
// CHECK-LABEL: func.func @argmax
// CHECK:         %[[IRF:I_rf]] = tir.alloc_buffer : memref<8x4xi32>
// CHECK-NEXT:    %[[VRF:V_rf]] = tir.alloc_buffer : memref<8x4xf32>
// CHECK:         tir.block "argmax_rf"(%[[VKO:.+]] = spatial(4, %{{.+}}), %[[VI:.+]] = spatial(8, %{{.+}}), %[[VKI:.+]] = reduce(16, %{{.+}}))
// CHECK-SAME:        writes(%[[IRF]][%[[VI]], %[[VKO]]], %[[VRF]][%[[VI]], %[[VKO]]] : memref<8x4xi32>, memref<8x4xf32>) {
// CHECK-NEXT:      tir.init {
// CHECK-NEXT:        %[[M1:.+]] = arith.constant -1 : i32
// CHECK-NEXT:        %[[NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:        tir.store %[[M1]], %[[IRF]][%[[VI]], %[[VKO]]]
// CHECK-NEXT:        tir.store %[[NINF]], %[[VRF]][%[[VI]], %[[VKO]]]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[K:.+]] = affine.apply #{{.+}}(%[[VKO]], %[[VI]], %[[VKI]])
// CHECK:           %[[KEEP:.+]] = arith.cmpf oge
// CHECK-NEXT:      arith.select %[[KEEP]]
// CHECK-NEXT:      arith.select %[[KEEP]]
// CHECK-NOT:       arith.cmpf
// CHECK:         tir.block "argmax"(%[[W:.+]] = reduce(4, %{{.+}}), %{{.+}} = spatial(8, %{{.+}}))
// CHECK-SAME:        reads(%[[IRF]][%{{.+}}, %[[W]]], %[[VRF]][%{{.+}}, %[[W]]] : memref<8x4xi32>, memref<8x4xf32>)
func.func @argmax(%val: memref<8x64xf32> {tir.name = "val"}, %I: memref<8xi32> {tir.name = "I"}, %V: memref<8xf32> {tir.name = "V"}) {
  tir.for %i = 0 to 8 {
    tir.for %ko = 0 to 4 {
      tir.for %ki = 0 to 16 {
        tir.block "argmax"(%vi = spatial(8, %i), %vk = reduce(64, %ko * 16 + %ki)) {
          tir.init {
            %m1 = arith.constant -1 : i32
            tir.store %m1, %I[%vi] : memref<8xi32>
            %lo = arith.constant 0xFF800000 : f32
            tir.store %lo, %V[%vi] : memref<8xf32>
          }
          %v = tir.load %V[%vi] : memref<8xf32>
          %x = tir.load %val[%vi, %vk] : memref<8x64xf32>
          %keep = arith.cmpf oge, %v, %x : f32
          %cur = tir.load %I[%vi] : memref<8xi32>
          %k = arith.index_cast %vk : index to i32
          %ni = arith.select %keep, %cur, %k : i32
          %nv = arith.select %keep, %v, %x : f32
          tir.store %ni, %I[%vi] : memref<8xi32>
          tir.store %nv, %V[%vi] : memref<8xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "argmax" in %root : (!transform.any_op) -> !transform.any_op
    %i, %ko, %ki = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %rf = transform.tir.rfactor %ko {factor_axis = -1} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
