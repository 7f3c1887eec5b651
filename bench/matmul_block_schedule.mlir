// A transform script that schedules the staged matmul
// bench/matmul_staged.mlir (pack B, accumulate locally, write back) with
// the loop and block primitives, to the loop structure of the hand-written
// bench/matmul_tiled.mlir:
//
//   for j0 in 0..32:                           a 32-column panel of C
//     pack: for k in 0..1024, ji (2 unrolled x 16 vectorized):
//       Bp[j0, k, ji] = B[k, j0 * 32 + ji]     (compute_at at j0)
//     for i0 in 0..128 parallel:               an 8x32 tile of C
//       C_init: Cl[tile] = 0                   (decompose_reduction at k)
//       for k in 0..1024, i1 in 0..8 unrolled, j1 in 0..2 unrolled,
//           j2 in 0..16 vectorized:
//         Cl[i, j] += A[i, k] * Bp[j0, k, j1 * 16 + j2]
//       write_back: C[tile] = Cl[tile]         (reverse_compute_at at i0)
//
// The staged buffers are declared whole (Bp 32 x 1024 x 32, Cl 1024 x
// 1024); the lowering compacts them (convert-tir-to-scf compact-buffers,
// TVM's CompactBufferAllocation): Cl to an 8 x 32 stack buffer per
// iteration of the parallel i0, whose 16 vectors stay in registers across
// k, Bp to one 1 x 1024 x 32 panel that the iterations of j0 reuse.
//
//   tir-opt bench/matmul_staged.mlir \
//     --transform-preload-library=transform-library-paths=bench/matmul_block_schedule.mlir \
//     --transform-interpreter
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %pack = transform.tir.get_block "pack" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %wb = transform.tir.get_block "write_back" in %root : (!transform.any_op) -> !transform.any_op

    // Tile the reduction: 8x32 tiles of C, panels of 32 columns outermost.
    %i, %j, %k = transform.tir.get_loops %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %i0, %i1 = transform.tir.split %i [?, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %j0, %j1 = transform.tir.split %j [?, 32] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.reorder %j0, %i0, %k, %i1, %j1 : !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op

    // Pack the panel a j0 iteration reads, right before its tiles.
    transform.tir.compute_at %pack at %j0 : !transform.any_op, !transform.any_op
    // Write each tile back right after its reduction (before the 32
    // columns are split: the region a tile writes is then a dense box
    // to the region analysis, which takes j1 * 16 + j2 for one with holes).
    transform.tir.reverse_compute_at %wb at %i0 : !transform.any_op, !transform.any_op
    transform.tir.parallel %i0 : !transform.any_op
    %j1a, %j1b = transform.tir.split %j1 [2, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.tir.unroll %i1 : !transform.any_op
    transform.tir.unroll %j1a : !transform.any_op
    transform.tir.vectorize %j1b : !transform.any_op
    // Zero the tile's accumulator once, above k. Last, as in TVM: the
    // parallel / vectorize checks want each block under the loop complete
    // or a reduction block, which the init and update blocks are not (both
    // write the tile). The init's loops copy i1, j1a, j1b with their kinds.
    %init = transform.tir.decompose_reduction %c at %k : (!transform.any_op, !transform.any_op) -> !transform.any_op

    // The other stages' loops: rows unrolled, 32 columns as 2 x 16 lanes.
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
