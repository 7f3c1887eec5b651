// A transform script that schedules bench/matmul_naive.mlir with the loop
// primitives alone (TVM's split / reorder / parallel / unroll / vectorize):
//
//   for i0 in 0..128 parallel, j0 in 0..32, k in 0..1024,
//       i1 in 0..8 unrolled, j1 in 0..2 unrolled, j2 in 0..16 vectorized:
//     C[i0 * 8 + i1, j0 * 32 + j1 * 16 + j2] += A[i, k] * B[k, j]
//
// Without cache_read / cache_write (not there yet) the 8x32 tile of C is
// loaded and stored at every k; bench/matmul_tiled.mlir shows what those
// add.
//
//   tir-opt bench/matmul_naive.mlir \
//     --transform-preload-library=transform-library-paths=bench/matmul_schedule.mlir \
//     --transform-interpreter
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tir.get_loops %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %i0, %i1 = transform.tir.split %i [?, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %j0, %j1, %j2 = transform.tir.split %j [?, 2, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.tir.reorder %i0, %j0, %k, %i1, %j1, %j2 : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op
    transform.tir.parallel %i0 : !transform.any_op
    transform.tir.unroll %i1 : !transform.any_op
    transform.tir.unroll %j1 : !transform.any_op
    transform.tir.vectorize %j2 : !transform.any_op
    transform.yield
  }
}
