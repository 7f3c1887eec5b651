// add_unit_loop around a block and around a loop; vectorize a loop of 10.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b0 = transform.tir.get_block "B0" in %root : (!transform.any_op) -> !transform.any_op
    %u0 = transform.tir.add_unit_loop %b0 : (!transform.any_op) -> !transform.any_op
    %b1 = transform.tir.get_block "B1" in %root : (!transform.any_op) -> !transform.any_op
    %i1 = transform.tir.get_loops %b1 : (!transform.any_op) -> !transform.any_op
    %u1 = transform.tir.add_unit_loop %i1 : (!transform.any_op) -> !transform.any_op
    %b2 = transform.tir.get_block "B2" in %root : (!transform.any_op) -> !transform.any_op
    %i2 = transform.tir.get_loops %b2 : (!transform.any_op) -> !transform.any_op
    transform.tir.vectorize %i2 : !transform.any_op
    transform.yield
  }
}
