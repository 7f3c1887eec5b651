//===- Mutators.h - TVM's mutators ------------------------------*- C++ -*-===//
//
// The mutators TVM's evolutionary search varies a measured trace with, one
// decision at a time (lib/MetaSchedule/Mutator/<Name>.cpp each):
//
//  - MutateTileSize: a factor moved between two tiles of a perfect tiling,
//    or another vector length for a cooperative fetch.
//  - MutateUnroll: another depth for an unroll annotation.
//  - MutateParallel: another extent for the root's parallel annotation
//    (another number of outer loops fused and run in parallel).
//  - MutateComputeLocation: another place for a block's compute_at.
//  - MutateThreadBinding: another thread count for a loop split and bound
//    to threadIdx.x.
//
// Each returns std::nullopt when the trace has nothing of its kind to
// vary. Their str() is TVM's repr, `meta_schedule.<Name>(0x...)`.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_MUTATORS_H
#define TENSORIR_METASCHEDULE_MUTATORS_H

#include "TensorIR/MetaSchedule/Mutator.h"

namespace mlir::tir::ms {

std::shared_ptr<Mutator> createMutateTileSize();
std::shared_ptr<Mutator> createMutateUnroll();
/// `maxJobsPerCore` times the target's "num-cores" bounds the parallel
/// extent (the target must give "num-cores", as TVM requires).
std::shared_ptr<Mutator> createMutateParallel(int64_t maxJobsPerCore);
/// Needs the TuneContext's module: it replays traces on it.
std::shared_ptr<Mutator> createMutateComputeLocation();
std::shared_ptr<Mutator> createMutateThreadBinding();

/// The max_jobs_per_core of a MutateParallel (TVM's field of that name);
/// std::nullopt for another mutator.
std::optional<int64_t> getMaxJobsPerCore(const Mutator &mutator);

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_MUTATORS_H
