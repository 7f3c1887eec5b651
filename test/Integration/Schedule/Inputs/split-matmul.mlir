// split with factors that do not divide 128 (predicates on spatial and
// reduce loops), inferred factors, and preserve_unit_iters = false.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %i0, %i1 = transform.tir.split %i [?, 5] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %j0, %j1, %j2 = transform.tir.split %j [3, 1, ?] {preserve_unit_iters = false} : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %k0, %k1 = transform.tir.split %k [?, 7] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
