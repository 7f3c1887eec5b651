// A graph function with a dynamic batch dimension (relax's
// R.Tensor(("n", 784))): its operators legalize to prim_funcs whose buffers
// keep the shape variable (tir.dim_vars) and whose loops run to its size,
// called with the size of each result; fused functions allocate their
// intermediates at that size; bufferization names the result's dimension
// after the variable, which the runtime allocates it by.
// RUN: tir-opt %s --tir-legalize-ops | FileCheck %s
// RUN: tir-opt %s --tir-legalize-ops --tir-fuse-ops --tir-fuse-tir | FileCheck %s --check-prefix=FUSE
// RUN: tir-opt %s --tir-legalize-ops --tir-bufferize-graph | FileCheck %s --check-prefix=BUF
// RUN: tir-opt %s --tir-legalize-ops | tir-translate --tir-to-tvmscript | FileCheck %s --check-prefix=SCRIPT

// CHECK-LABEL: func.func private @matmul(
// CHECK-SAME:    %[[A:.*]]: memref<?x4xf32> {tir.dim_vars = ["n", ""], tir.name = "A"}
// CHECK-SAME:    %{{.*}}: memref<4x8xf32> {tir.name = "B"}
// CHECK-SAME:    %{{.*}}: memref<?x8xf32> {tir.dim_vars = ["n", ""], tir.name = "T_matmul"}
// CHECK:         %[[N:.*]] = memref.dim %[[A]], %{{.*}} : memref<?x4xf32>
// CHECK:         tir.for %{{.*}} = 0 to %[[N]] {
// CHECK:           tir.block "matmul"(%{{.*}} = spatial(%[[N]], %{{.*}}),
// CHECK-LABEL: func.func private @relu(
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %[[X:.*]]: tensor<?x4xf32> {tir.dim_vars = ["n", ""], tir.name = "x"}
// CHECK:         %[[S:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x4xf32>
// CHECK:         %[[M:.*]] = tir.call_tir @matmul(%[[X]], %{{.*}}) dims(%[[S]]) : (tensor<?x4xf32>, tensor<4x8xf32>) -> tensor<?x8xf32>
// CHECK:         tir.call_tir @relu(%[[M]]) dims(%[[S]]) : (tensor<?x8xf32>) -> tensor<?x8xf32>

// FUSE-LABEL: func.func private @fused_matmul_relu(
// FUSE:         %[[N:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?x4xf32>
// FUSE:         tir.alloc_buffer(%[[N]]) : memref<?x8xf32>
// FUSE-LABEL: func.func @main(
// FUSE:         tir.call_tir @fused_matmul_relu(%{{.*}}, %{{.*}}) dims(%{{.*}})

// BUF-LABEL: func.func @main(
// BUF-SAME:    %{{.*}}: memref<?x8xf32> {tir.dim_vars = ["n", ""], tir.name = "output", tir.result}

// SCRIPT:      def main(x: R.Tensor(("n", 4), dtype="float32"), w: R.Tensor((4, 8), dtype="float32")) -> R.Tensor(("n", 8), dtype="float32"):
// SCRIPT:        n = T.int64()
// SCRIPT:        lv = R.call_tir(cls.matmul, (x, w), out_sinfo=R.Tensor((n, 8), dtype="float32"))
// SCRIPT:        gv: R.Tensor((n, 8), dtype="float32") = lv1
func.func @main(%x: tensor<?x4xf32> {tir.name = "x", tir.dim_vars = ["n", ""]},
                %w: tensor<4x8xf32> {tir.name = "w"}) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<?x8xf32>) -> tensor<?x8xf32>
  %m = linalg.matmul ins(%x, %w : tensor<?x4xf32>, tensor<4x8xf32>) outs(%init : tensor<?x8xf32>) -> tensor<?x8xf32>
  %e2 = tensor.empty(%n) : tensor<?x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<?x8xf32>) outs(%e2 : tensor<?x8xf32>) attrs = {tir.name = "relu"} {
  ^bb0(%a: f32, %o: f32):
    %v = arith.maximumf %a, %zero : f32
    linalg.yield %v : f32
  } -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
