// fuse the spatial loops of both blocks of matmul + ReLU.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %y = transform.tir.get_block "Y" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tir.get_loops %y : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %f = transform.tir.fuse %i, %j : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %d = transform.tir.get_block "D" in %root : (!transform.any_op) -> !transform.any_op
    %a, %b = transform.tir.get_loops %d : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %g = transform.tir.fuse %a, %b : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}
