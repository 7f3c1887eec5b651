// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// blockize at the inner tile loops: each binding divides into the outer
// tile (the outer block B_o's variables, bound to the outer loops) and the
// position in the tile (B's new variables); B reads vi as vi_o * 8 + vi_i.
// B_o lists the tile's regions.
// CHECK-LABEL: func.func @tiles
// CHECK:         tir.for %[[I0:.+]] = 0 to 4 {
// CHECK-NEXT:      tir.for %[[J0:.+]] = 0 to 3 {
// CHECK-NEXT:        tir.block "B_o"(%[[VIO:.+]] = spatial(4, %[[I0]]), %[[VJO:.+]] = spatial(3, %[[J0]]))
// CHECK-SAME:            reads(%{{[a-z0-9]+}}[%[[VIO]] * 8 : %[[VIO]] * 8 + 8, %[[VJO]] * 16 : %[[VJO]] * 16 + 16]
// CHECK-SAME:            writes(%{{[a-z0-9]+}}[%[[VIO]] * 8 : %[[VIO]] * 8 + 8, %[[VJO]] * 16 : %[[VJO]] * 16 + 16]
// CHECK-NEXT:          tir.for %[[I1:.+]] = 0 to 8 {
// CHECK-NEXT:            tir.for %[[J1:.+]] = 0 to 16 {
// CHECK-NEXT:              tir.block "B"(%[[VII:.+]] = spatial(8, %[[I1]]), %[[VJI:.+]] = spatial(16, %[[J1]])) {
// CHECK-NEXT:                tir.load %{{.+}}[%[[VII]] + %[[VIO]] * 8, %[[VJI]] + %[[VJO]] * 16]
// CHECK:                     tir.store %{{.+}}, %{{.+}}[%[[VII]] + %[[VIO]] * 8, %[[VJI]] + %[[VJO]] * 16]
func.func @tiles(%A: memref<32x48xf32> {tir.name = "A"}, %B: memref<32x48xf32> {tir.name = "B"}) {
  tir.for %i0 = 0 to 4 {
    tir.for %j0 = 0 to 3 {
      tir.for %i1 = 0 to 8 {
        tir.for %j1 = 0 to 16 {
          tir.block "B"(%vi = spatial(32, %i0 * 8 + %i1), %vj = spatial(48, %j0 * 16 + %j1)) {
            %a = tir.load %A[%vi, %vj] : memref<32x48xf32>
            %c = arith.constant 3.0 : f32
            %m = arith.mulf %a, %c : f32
            tir.store %m, %B[%vi, %vj] : memref<32x48xf32>
          }
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i0, %j0, %i1, %j1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %o = transform.tir.blockize %i1 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A reduction blockized at its inner reduction loop: the outer block
// reduces over the outer part (vk_o) and holds the init, as a block S_init
// (no inner spatial variable: no loop); the inner block has no init.
// Without preserve_unit_iters nothing changes here (no unit loops).
// CHECK-LABEL: func.func @rowsum
// CHECK:         tir.block "S_o"(%[[VIO:.+]] = spatial(8, %{{.+}}), %[[VKO:.+]] = reduce(4, %{{.+}}))
// CHECK-NEXT:      tir.init {
// CHECK-NEXT:        tir.block "S_init"() {
// CHECK-NEXT:          %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:          tir.store %[[Z]], %{{.+}}[%[[VIO]]]
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 16 {
// CHECK-NEXT:        tir.block "S"(%[[VKI:.+]] = reduce(16, %{{.+}})) {
// CHECK-NOT:           tir.init
// CHECK:               tir.load %{{.+}}[%[[VIO]], %[[VKI]] + %[[VKO]] * 16]

func.func @rowsum(%A: memref<8x64xf32> {tir.name = "A"}, %S: memref<8xf32> {tir.name = "S"}) {
  tir.for %i = 0 to 8 {
    tir.for %ko = 0 to 4 {
      tir.for %ki = 0 to 16 {
        tir.block "S"(%vi = spatial(8, %i), %vk = reduce(64, %ko * 16 + %ki)) {
          tir.init {
            %z = arith.constant 0.0 : f32
            tir.store %z, %S[%vi] : memref<8xf32>
          }
          %s = tir.load %S[%vi] : memref<8xf32>
          %a = tir.load %A[%vi, %vk] : memref<8x64xf32>
          %t = arith.addf %s, %a : f32
          tir.store %t, %S[%vi] : memref<8xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %i, %ko, %ki = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %o = transform.tir.blockize %ki {preserve_unit_iters = false} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
