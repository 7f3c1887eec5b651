// RUN: tir-opt %s | FileCheck %s
// RUN: tir-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: tir-opt %s -mlir-print-op-generic | tir-opt | FileCheck %s

// split's factors, each typed (#tir.split_factor): inferred, constant,
// a parameter operand, scalable; printed in both forms and parsed back.

// CHECK:       #[[VSCALE4:.+]] = affine_map<()[s0] -> (s0 * 4)>
// CHECK-LABEL: transform.named_sequence @__transform_main
// CHECK:         %[[P:.+]] = transform.param.constant 4
// CHECK:         transform.tir.split %{{.+}} [?, 2, %[[P]], #[[VSCALE4]]] {vscale_values = array<i64: 1, 2>} : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
// GENERIC:       #[[VSCALE4:.+]] = affine_map<()[s0] -> (s0 * 4)>
// GENERIC:       "transform.tir.split"
// GENERIC-SAME:    factors = [#tir.split_factor<?>, #tir.split_factor<2>, #tir.split_factor<param 0>, #tir.split_factor<#[[VSCALE4]]>]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %p = transform.param.constant 4 : i64 -> !transform.param<i64>
    %a:4 = transform.tir.split %i [?, 2, %p, affine_map<()[s0] -> (s0 * 4)>] {vscale_values = array<i64: 1, 2>} : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
