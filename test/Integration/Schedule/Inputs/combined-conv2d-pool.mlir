// conv2d + 2x2 max pooling: the pooling tiled (f by 4, y by 2), its x
// innermost; the convolution computed at the pooling's y tile (4 rows of
// it for 2 pooled rows), its reduction loops moved outside its points and
// its x vectorized, kx unrolled; the channel tiles parallel; both
// reductions decomposed (the convolution's at its channel loop, the
// pooling's at its window loop); the pooled x vectorized.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %pool = transform.tir.get_block "pool" in %root : (!transform.any_op) -> !transform.any_op
    %n, %f, %y, %x, %ry, %rx = transform.tir.get_loops %pool : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %f0, %f1 = transform.tir.split %f [?, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %y0, %y1 = transform.tir.split %y [?, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.reorder %f0, %y0, %f1, %y1, %ry, %rx, %x : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
    %conv = transform.tir.get_block "conv" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.compute_at %conv at %y0 : !transform.any_op, !transform.any_op
    %cn, %cf0, %cy0, %af, %ay, %ax, %ac, %aky, %akx = transform.tir.get_loops %conv : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.tir.reorder %ac, %aky, %akx, %af, %ay, %ax : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
    transform.tir.vectorize %ax : !transform.any_op
    transform.tir.unroll %akx : !transform.any_op
    transform.tir.parallel %f0 : !transform.any_op
    transform.tir.vectorize %x : !transform.any_op
    %cinit = transform.tir.decompose_reduction %conv at %ac : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %pinit = transform.tir.decompose_reduction %pool at %ry : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}
