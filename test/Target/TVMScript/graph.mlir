// RUN: tir-translate --tir-to-tvmscript %s | FileCheck %s --strict-whitespace

// A graph function prints as @R.function: its calls of prim_funcs as
// R.call_tir, upstream linalg ops as Relax's operators, tensor constants
// as metadata entries (omitted unless asked for), the output bound to gv.

// CHECK:      {{^}}# from tensorir.script import relax as R
// CHECK:      {{^}}    @T.prim_func(private=True)
// CHECK-NEXT: {{^}}    def relu(A: T.Buffer((2, 4), "float32"), B: T.Buffer((2, 4), "float32")):
// CHECK:      {{^}}    @R.function
// CHECK-NEXT: {{^}}    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((4, 2), dtype="float32"):
// CHECK-NEXT: {{^}}        cls = Module
// CHECK-NEXT: {{^}}        with R.dataflow():
// CHECK-NEXT: {{^}}            lv: R.Tensor((2, 4), dtype="float32") = R.matmul(x, metadata["relax.expr.Constant"][0], out_dtype="void")
// CHECK-NEXT: {{^}}            lv1: R.Tensor((2, 4), dtype="float32") = R.add(lv, metadata["relax.expr.Constant"][1])
// CHECK-NEXT: {{^}}            lv2 = R.call_tir(cls.relu, (lv1,), out_sinfo=R.Tensor((2, 4), dtype="float32"))
// CHECK-NEXT: {{^}}            lv3: R.Tensor((4, 2), dtype="float32") = R.permute_dims(lv2, axes=[1, 0])
// CHECK-NEXT: {{^}}            gv: R.Tensor((4, 2), dtype="float32") = lv3
// CHECK-NEXT: {{^}}            R.output(gv)
// CHECK-NEXT: {{^}}        return gv
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}# Metadata omitted. Use show_meta=True in script() method to show it.

module {
  func.func private @relu(%a: memref<2x4xf32> {tir.name = "A"}, %b: memref<2x4xf32> {tir.name = "B"}) {
    tir.for %i = 0 to 2 {
      tir.for %j = 0 to 4 {
        tir.block "relu"(%vi = spatial(2, %i), %vj = spatial(4, %j)) {
          %z = arith.constant 0.0 : f32
          %v = tir.load %a[%vi, %vj] : memref<2x4xf32>
          %m = arith.maximumf %v, %z : f32
          tir.store %m, %b[%vi, %vj] : memref<2x4xf32>
        }
      }
    }
    return
  }
  func.func @main(%x: tensor<2x3xf32> {tir.name = "x"}) -> tensor<4x2xf32> {
    %w = arith.constant dense<1.0> : tensor<3x4xf32>
    %bias = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<2x4xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
    %m = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
    %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %bias : tensor<2x4xf32>, tensor<4xf32>) outs(%e : tensor<2x4xf32>) attrs = {tir.name = "add"} {
    ^bb0(%p: f32, %q: f32, %o: f32):
      %s = arith.addf %p, %q : f32
      linalg.yield %s : f32
    } -> tensor<2x4xf32>
    %r = tir.call_tir @relu(%a) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %e2 = tensor.empty() : tensor<4x2xf32>
    %t = linalg.transpose ins(%r : tensor<2x4xf32>) outs(%e2 : tensor<4x2xf32>) permutation = [1, 0]
    return %t : tensor<4x2xf32>
  }
}
