// reorder the conv loops: the window loops move outside the spatial ones
// (each output element still reduces c, ky, kx in the same order).
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "conv" in %root : (!transform.any_op) -> !transform.any_op
    %n, %f, %y, %x, %ci, %ky, %kx = transform.tir.get_loops %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.tir.reorder %ci, %ky, %y, %kx : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
    %p = transform.tir.get_block "pool" in %root : (!transform.any_op) -> !transform.any_op
    %pn, %pf, %py, %px, %ry, %rx = transform.tir.get_loops %p : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.tir.reorder %rx, %px, %pf : !transform.any_op, !transform.any_op, !transform.any_op
    transform.yield
  }
}
