// matmul + ReLU tiled at the output: the ReLU's i split by 8 and j by 16,
// the matmul computed at the ReLU's j tile (compute_at), its k split by 4
// with both k loops outside the tile's points, the j points vectorized and
// the inner k unrolled, the tile loops fused and parallel, the reduction
// decomposed at the outer k.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %d = transform.tir.get_block "D" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %d : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %i0, %i1 = transform.tir.split %i [?, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %j0, %j1 = transform.tir.split %j [?, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.reorder %i0, %j0, %i1, %j1 : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
    %y = transform.tir.get_block "Y" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.compute_at %y at %j0 : !transform.any_op, !transform.any_op
    %t0, %t1, %yi, %yj, %yk = transform.tir.get_loops %y : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %k0, %k1 = transform.tir.split %yk [?, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.reorder %k0, %k1, %yi, %yj : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
    transform.tir.vectorize %yj : !transform.any_op
    transform.tir.unroll %k1 : !transform.any_op
    transform.tir.vectorize %j1 : !transform.any_op
    %f = transform.tir.fuse %i0, %j0 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.tir.parallel %f : !transform.any_op
    %init = transform.tir.decompose_reduction %y at %k0 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}
