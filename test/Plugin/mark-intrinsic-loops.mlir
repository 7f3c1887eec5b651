// The example pass plugin (examples/plugin/MarkIntrinsicLoops.cpp) loaded
// into tir-opt: innermost loops whose constant trip count divides by
// `width` get pragma_custom_intrin; outer loops, other trip counts and
// dynamic bounds are left alone, and existing annotations are kept.
// RUN: tir-opt --load-pass-plugin=%tir_libs/TIRMarkIntrinsicLoops.so %s \
// RUN:   --pass-pipeline="builtin.module(tir-mark-intrinsic-loops{width=8 intrinsic=vdot})" \
// RUN:   | FileCheck %s
// RUN: not tir-opt --load-pass-plugin=%tir_libs/TIRMarkIntrinsicLoops.so %s \
// RUN:   --pass-pipeline="builtin.module(tir-mark-intrinsic-loops{width=0})" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD
// BAD: error: tir-mark-intrinsic-loops: width must be positive, got 0

// CHECK-LABEL: func.func @loops
// CHECK:         tir.for %i = 0 to 4 {
// CHECK:           tir.for %j = 0 to 16 annotations {pragma_custom_intrin = "vdot"} {
// CHECK:         tir.for %k = 0 to 12 {
// CHECK:         tir.for %l = 0 to %{{.*}} {
// CHECK:         tir.for %m = 8 to 24 annotations {note = 1 : i64, pragma_custom_intrin = "vdot"} {
func.func @loops(%A: memref<64x64xf32> {tir.name = "A"}, %n: index {tir.name = "n"}) {
  %c = arith.constant 1.0 : f32
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 16 {
      tir.block "a"(%vi = spatial(4, %i), %vj = spatial(16, %j)) {
        tir.store %c, %A[%vi, %vj] : memref<64x64xf32>
      }
    }
  }
  tir.for %k = 0 to 12 {
    tir.block "b"(%vk = spatial(12, %k)) {
      tir.store %c, %A[%vk, 0] : memref<64x64xf32>
    }
  }
  tir.for %l = 0 to %n {
    tir.block "c"(%vl = spatial(%n, %l)) {
      tir.store %c, %A[%vl, 1] : memref<64x64xf32>
    }
  }
  tir.for %m = 8 to 24 annotations {note = 1} {
    tir.block "d"(%vm = spatial(32, %m)) {
      tir.store %c, %A[%vm, 2] : memref<64x64xf32>
    }
  }
  return
}
