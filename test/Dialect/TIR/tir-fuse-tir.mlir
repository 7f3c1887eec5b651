// --tir-annotate-op-pattern gives each prim_func TVM's operator pattern;
// --tir-fuse-ops groups the calls by them and --tir-fuse-tir makes each
// group one prim_func: element-wise work after a matmul, element-wise work
// before a reduction, nothing after a reduction, no injective work before
// a matmul.
// RUN: tir-opt %s --tir-legalize-ops --tir-annotate-op-pattern | FileCheck %s --check-prefix=PATTERN
// RUN: tir-opt %s --tir-legalize-ops --tir-fuse-ops --tir-fuse-tir | FileCheck %s
// RUN: tir-opt %s --tir-legalize-ops --tir-fuse-ops --tir-fuse-tir | tir-translate --tir-to-tvmscript | FileCheck %s --check-prefix=SCRIPT

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#red = affine_map<(d0, d1) -> (d0)>

// PATTERN-DAG: func.func private @transpose({{.*}} attributes {tir.op_pattern = 2 : i64}
// PATTERN-DAG: func.func private @matmul({{.*}} attributes {tir.op_pattern = 4 : i64}
// PATTERN-DAG: func.func private @add({{.*}} attributes {tir.op_pattern = 0 : i64}
// PATTERN-DAG: func.func private @relu({{.*}} attributes {tir.op_pattern = 0 : i64}
// PATTERN-DAG: func.func private @sum({{.*}} attributes {tir.op_pattern = 3 : i64}

// CHECK-LABEL: func.func private @fused_matmul_add_relu_exp(
// CHECK:         tir.alloc_buffer : memref<4x8xf32>
// CHECK:         tir.block "matmul"
// CHECK:         tir.block "add"
// CHECK:         tir.block "relu"
// CHECK:         tir.block "exp"
// CHECK-LABEL: func.func @main(
// CHECK:         %[[T:.*]] = tir.call_tir @transpose(
// CHECK:         %[[E:.*]] = tir.call_tir @fused_matmul_add_relu_exp(%{{.*}}, %[[T]], %{{.*}})
// CHECK:         %[[S:.*]] = tir.call_tir @sum(%[[E]])
// CHECK:         tir.call_tir @divide(%[[E]], %[[S]])
// CHECK-LABEL: func.func private @fused_exp_sum(
// CHECK:         tir.block "exp"
// CHECK:         tir.block "sum"
// CHECK-LABEL: func.func @reduce_after_exp(
// CHECK:         tir.call_tir @fused_exp_sum(
// The callees fusion took are gone.
// CHECK-NOT:   func.func private @relu(

// SCRIPT:      def fused_matmul_add_relu_exp(A: T.Buffer((4, 6), "float32"), B: T.Buffer((6, 8), "float32"), B_1: T.Buffer((8,), "float32"), T_exp: T.Buffer((4, 8), "float32")):
// SCRIPT:        matmul = T.alloc_buffer((4, 8), "float32")
func.func @main(%x: tensor<4x6xf32>, %w: tensor<8x6xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<6x8xf32>
  %t = linalg.transpose ins(%w : tensor<8x6xf32>) outs(%et : tensor<6x8xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<4x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%x, %t : tensor<4x6xf32>, tensor<6x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) attrs = {tir.name = "add"} {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %v = arith.addf %p, %q : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) attrs = {tir.name = "relu"} {
  ^bb0(%p: f32, %o: f32):
    %v = arith.maximumf %p, %zero : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %x2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) attrs = {tir.name = "exp"} {
  ^bb0(%p: f32, %o: f32):
    %v = math.exp %p : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %es = tensor.empty() : tensor<4xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]} ins(%x2 : tensor<4x8xf32>) outs(%zs : tensor<4xf32>) attrs = {tir.name = "sum"} {
  ^bb0(%p: f32, %o: f32):
    %v = arith.addf %p, %o : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %d = linalg.generic {indexing_maps = [#id, #red, #id], iterator_types = ["parallel", "parallel"]} ins(%x2, %s : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) attrs = {tir.name = "divide"} {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %v = arith.divf %p, %q : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

func.func @reduce_after_exp(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %x2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) attrs = {tir.name = "exp"} {
  ^bb0(%p: f32, %o: f32):
    %v = math.exp %p : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %es = tensor.empty() : tensor<4xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]} ins(%x2 : tensor<4x8xf32>) outs(%zs : tensor<4xf32>) attrs = {tir.name = "sum"} {
  ^bb0(%p: f32, %o: f32):
    %v = arith.addf %p, %o : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// A reduction reading a window (i * 2 + k) is matmul-like (TVM's pooling
// rule); a read at a loaded index is opaque, and nothing fuses with it.
// PATTERN-DAG: func.func private @window({{.*}} attributes {tir.op_pattern = 4 : i64}
// PATTERN-DAG: func.func private @gather({{.*}} attributes {tir.op_pattern = 8 : i64}
// CHECK-LABEL: func.func @window_and_gather(
// CHECK:         tir.call_tir @window(
// CHECK:         tir.call_tir @gather(
// CHECK:         tir.call_tir @abs(
func.func @window_and_gather(%x: tensor<8xf32>, %i: tensor<4xi32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 * 2 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %e2 : tensor<8xf32>, tensor<2xf32>) outs(%z : tensor<4xf32>) attrs = {tir.name = "window"} {
  ^bb0(%p: f32, %unused: f32, %o: f32):
    %v = arith.addf %p, %o : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%i, %w : tensor<4xi32>, tensor<4xf32>) outs(%e4 : tensor<4xf32>) attrs = {tir.name = "gather"} {
  ^bb0(%k: i32, %unused: f32, %o: f32):
    %c = arith.index_cast %k : i32 to index
    %v = tensor.extract %w[%c] : tensor<4xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%g : tensor<4xf32>) outs(%e4 : tensor<4xf32>) attrs = {tir.name = "abs"} {
  ^bb0(%p: f32, %o: f32):
    %v = math.absf %p : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %n : tensor<4xf32>
}
