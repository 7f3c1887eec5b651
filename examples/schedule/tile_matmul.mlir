// A schedule for examples/matmul.mlir, as TVM's
//   i0, i1 = sch.split(i, [None, 8]); j0, j1 = sch.split(j, [None, 16])
//   sch.reorder(i0, j0, k, i1, j1); sch.parallel(i0)
//   sch.unroll(i1); sch.vectorize(j1)
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tir.get_loops %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %i0, %i1 = transform.tir.split %i [?, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %j0, %j1 = transform.tir.split %j [?, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.reorder %i0, %j0, %k, %i1, %j1 : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
    transform.tir.parallel %i0 : !transform.any_op
    transform.tir.unroll %i1 : !transform.any_op
    transform.tir.vectorize %j1 : !transform.any_op
    transform.yield
  }
}
