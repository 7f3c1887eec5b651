// A transform script that schedules the unscheduled matmul
// bench/matmul_naive.mlir with primitives only, to the loop structure of
// the hand-written bench/matmul_tiled.mlir (as bench/matmul_block_schedule.mlir
// does from a hand-staged program):
//
//   cache_write C -> C_local   the accumulator, written back after
//   cache_read B  -> B_global  a copy of B, then packed in 32-column
//                              panels: transform_layout (k, j) ->
//                              (j / 32, k, j % 32), and its copy iterating
//                              that way (transform_block_layout)
//   then the tiling of bench/matmul_block_schedule.mlir: 8x32 tiles of C,
//   the panel packed per j0 (compute_at), each tile written back after its
//   reduction (reverse_compute_at), i0 parallel, the tile's rows unrolled
//   and its 32 columns as 2 x 16 lanes, the accumulator zeroed above k
//   (decompose_reduction).
//
//   tir-opt bench/matmul_naive.mlir \
//     --transform-preload-library=transform-library-paths=bench/matmul_primitives_schedule.mlir \
//     --transform-interpreter
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %wb = transform.tir.cache_write %c {write_buffer_index = 0, storage_scope = "local"} : (!transform.any_op) -> !transform.any_op
    %pack = transform.tir.cache_read %c {read_buffer_index = 1, storage_scope = "global"} : (!transform.any_op) -> !transform.any_op
    transform.tir.transform_layout %pack {buffer_index = 0, buffer_index_type = "write", index_map = affine_map<(d0, d1) -> (d1 floordiv 32, d0, d1 mod 32)>} : !transform.any_op
    transform.tir.transform_block_layout %pack {index_map = affine_map<(d0, d1) -> (d1 floordiv 32, d0, d1 mod 32)>} : !transform.any_op

    // Tile the reduction: 8x32 tiles of C, panels of 32 columns outermost.
    %i, %j, %k = transform.tir.get_loops %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %i0, %i1 = transform.tir.split %i [?, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %j0, %j1 = transform.tir.split %j [?, 32] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.reorder %j0, %i0, %k, %i1, %j1 : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op

    transform.tir.compute_at %pack at %j0 : !transform.any_op, !transform.any_op
    transform.tir.reverse_compute_at %wb at %i0 : !transform.any_op, !transform.any_op
    transform.tir.parallel %i0 : !transform.any_op
    %j1a, %j1b = transform.tir.split %j1 [2, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.unroll %i1 : !transform.any_op
    transform.tir.unroll %j1a : !transform.any_op
    transform.tir.vectorize %j1b : !transform.any_op
    %init = transform.tir.decompose_reduction %c at %k : (!transform.any_op, !transform.any_op) -> !transform.any_op

    %p0, %pk, %pj = transform.tir.get_loops %pack : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %pj1, %pj2 = transform.tir.split %pj [2, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.unroll %pj1 : !transform.any_op
    transform.tir.vectorize %pj2 : !transform.any_op

    %w0, %w1, %wi, %wj = transform.tir.get_loops %wb : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %wj1, %wj2 = transform.tir.split %wj [2, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.unroll %wi : !transform.any_op
    transform.tir.unroll %wj1 : !transform.any_op
    transform.tir.vectorize %wj2 : !transform.any_op
    transform.yield
  }
}
