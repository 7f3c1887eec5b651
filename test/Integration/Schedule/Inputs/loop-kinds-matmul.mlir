// parallel the outer loop, vectorize a 16-wide inner spatial loop, unroll
// a 4-step piece of the reduction; annotate along the way.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %j0, %j1 = transform.tir.split %j [?, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %k0, %k1 = transform.tir.split %k [?, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.reorder %j0, %k0, %k1, %j1 : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
    transform.tir.parallel %i : !transform.any_op
    transform.tir.vectorize %j1 : !transform.any_op
    transform.tir.unroll %k1 : !transform.any_op
    transform.tir.annotate "note" = "scheduled" to %b : !transform.any_op
    transform.yield
  }
}
