// --tir-fuse-ops groups steps along the post-dominator tree as TVM's
// FuseOps does: a matmul takes the element-wise steps after it even where
// they branch and join again (a diamond), element-wise work before a
// matmul stays apart, and each group becomes a private graph function
// marked Primitive, taking what it reads (constants too) and returning
// what is read after it.
// RUN: tir-opt %s --tir-legalize-ops --tir-fuse-ops | FileCheck %s
// RUN: tir-opt %s --tir-legalize-ops --tir-fuse-ops | tir-translate --tir-to-tvmscript | FileCheck %s --check-prefix=SCRIPT
// RUN: tir-opt %s --tir-legalize-ops --tir-fuse-ops --tir-fuse-tir | FileCheck %s --check-prefix=TIR

#id = affine_map<(d0, d1) -> (d0, d1)>
#scalar = affine_map<(d0, d1) -> ()>

// CHECK-LABEL: func.func private @fused_matmul_add_add1(
// CHECK-SAME:    -> tensor<4x8xf32> attributes {tir.func_attrs = {Primitive = true}}
// CHECK:         %[[M:.*]] = tir.call_tir @matmul(
// CHECK:         %[[A:.*]] = tir.call_tir @add(%[[M]], %{{.*}})
// CHECK:         %[[B:.*]] = tir.call_tir @add1(%[[M]], %[[A]])
// CHECK:         return %[[B]]
// CHECK-LABEL: func.func @main(
// CHECK:         %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK:         %[[E:.*]] = tir.call_tir @exp(
// CHECK:         call @fused_matmul_add_add1(%[[E]], %{{.*}}, %[[C]])

// SCRIPT:      @R.function(private=True)
// SCRIPT-NEXT: def fused_matmul_add_add1(
// SCRIPT:        R.func_attr({"Primitive": True})
// SCRIPT:        cls.fused_matmul_add_add1(lv, w, R.const(1, "float32"))

// TIR-LABEL:   func.func private @fused_matmul_add_add1(
// TIR:           tir.block "matmul"
// TIR:           tir.block "add"
// TIR:           tir.block "add_1"
// TIR-LABEL:   func.func @main(
// TIR:           tir.call_tir @fused_matmul_add_add1(
// TIR-NOT:     func.func private @add1(
func.func @main(%x: tensor<4x6xf32> {tir.name = "x"}, %w: tensor<6x8xf32> {tir.name = "w"}) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant dense<1.0> : tensor<f32>
  %e6 = tensor.empty() : tensor<4x6xf32>
  %ex = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x6xf32>) outs(%e6 : tensor<4x6xf32>) attrs = {tir.name = "exp"} {
  ^bb0(%p: f32, %o: f32):
    %v = math.exp %p : f32
    linalg.yield %v : f32
  } -> tensor<4x6xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%ex, %w : tensor<4x6xf32>, tensor<6x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #scalar, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %one : tensor<4x8xf32>, tensor<f32>) outs(%e : tensor<4x8xf32>) attrs = {tir.name = "add"} {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %v = arith.addf %p, %q : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %b = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) attrs = {tir.name = "add"} {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %v = arith.addf %p, %q : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}
