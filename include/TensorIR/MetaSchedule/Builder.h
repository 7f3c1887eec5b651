//===- Builder.h - building candidates --------------------------*- C++ -*-===//
//
// TVM's Builder: the candidates' modules compiled for the target, each
// to an artifact a runner loads, or an error. FunctionBuilder is one
// given as functions (TVM's PyBuilder; LocalBuilder is written so, with
// a pool of processes).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_BUILDER_H
#define TENSORIR_METASCHEDULE_BUILDER_H

#include "TensorIR/MetaSchedule/Measure.h"
#include "TensorIR/MetaSchedule/Target.h"

namespace mlir::tir::ms {

struct BuilderInput {
  std::shared_ptr<OwningOpRef<ModuleOp>> mod;
  Target target;
};

class Builder {
public:
  virtual ~Builder();
  /// One result per input, in order.
  virtual FailureOr<std::vector<BuilderResult>>
  build(const std::vector<BuilderInput> &inputs, std::string &error) = 0;
};

class FunctionBuilder : public Builder {
public:
  std::string name = "PyBuilder";
  std::function<FailureOr<std::vector<BuilderResult>>(
      const std::vector<BuilderInput> &, std::string &)>
      buildFn;
  FailureOr<std::vector<BuilderResult>>
  build(const std::vector<BuilderInput> &inputs, std::string &error) override;
};

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_BUILDER_H
