// matmul + ReLU as TVM's tutorial schedules it for a CPU: j split by 16
// with the reduction loop between its parts, the ReLU moved under the j
// tile (reverse_compute_at), i parallel, the j points vectorized (the
// matmul's and the ReLU's), the reduction decomposed at k.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %y = transform.tir.get_block "Y" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tir.get_loops %y : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %j0, %j1 = transform.tir.split %j [?, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.reorder %j0, %k, %j1 : !transform.any_op, !transform.any_op, !transform.any_op
    %d = transform.tir.get_block "D" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.reverse_compute_at %d at %j0 : !transform.any_op, !transform.any_op
    transform.tir.parallel %i : !transform.any_op
    transform.tir.vectorize %j1 : !transform.any_op
    %di, %dj0, %dj1 = transform.tir.get_loops %d : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.tir.vectorize %dj1 : !transform.any_op
    %init = transform.tir.decompose_reduction %y at %k : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}
