//===- RewriteTensorize.cpp - annotated blocks tensorized
//------------------===//
//
// TVM's RewriteTensorize: the blocks MultiLevelTilingTensorCore (and
// MultiLevelTilingWithIntrin) annotated "meta_schedule.auto_tensorize"
// with an intrinsic's name (the fragment loads, stores, the product, and
// the init RewriteReductionBlock decomposed) become that intrinsic. As in
// TVM, a block the intrinsic does not match is left as it is (the
// candidate is then built, or refused, without it), with a warning; an
// init block annotated "" (an intrinsic without an init) has its one loop
// vectorized when asked.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/Postprocs.h"
#include "TensorIR/MetaSchedule/ScheduleSteps.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

constexpr StringLiteral kAutoTensorize = "meta_schedule.auto_tensorize";

struct Job {
  std::string block, func, intrin;
};

class RewriteTensorize : public Postproc {
public:
  explicit RewriteTensorize(bool vectorizeInitLoop)
      : vectorizeInitLoop(vectorizeInitLoop) {}

  LogicalResult initializeWithTuneContext(const TuneContext &context,
                                          std::string &) override {
    this->context = &context;
    return success();
  }

  FailureOr<bool> apply(const Schedule &sch, std::string &) override {
    // The jobs first (blocks by name, in post order as TVM visits them):
    // tensorizing one block replaces the blocks under it.
    std::vector<Job> jobs;
    for (FunctionOpInterface func : getScheduledFunctions(sch->getPayload())) {
      std::string funcName = func.getName().str();
      func->walk([&](BlockOp block) {
        DictionaryAttr annotations = block.getAnnotationsAttr();
        auto intrin = annotations ? dyn_cast_if_present<StringAttr>(
                                        annotations.get(kAutoTensorize))
                                  : StringAttr();
        if (intrin)
          jobs.push_back(
              {block.getBlockName().str(), funcName, intrin.getValue().str()});
      });
    }
    for (const Job &job : jobs) {
      std::string refusal;
      ScheduleSteps steps(*sch, refusal);
      FailureOr<Value> block = steps.getBlock(job.block, job.func);
      if (failed(block) || failed(steps.unannotate(*block, kAutoTensorize)))
        return false;
      if (!job.intrin.empty()) {
        if (failed(steps.tensorize(*block, job.intrin)) && context)
          context->log(LogLevel::Warning,
                       "Tensorize failed with error " + refusal);
        continue;
      }
      if (!vectorizeInitLoop || job.block.find("init") == std::string::npos)
        continue;
      // An init without an intrinsic: its one loop, vectorized.
      FailureOr<SmallVector<Value>> children = steps.getChildBlocks(*block);
      if (failed(children) || children->size() != 1)
        return false;
      FailureOr<SmallVector<Value>> loops = steps.getLoops(children->front());
      if (failed(loops) || loops->empty())
        return false;
      if (failed(steps.vectorize(loops->back())))
        return false;
    }
    return true;
  }

  FailureOr<std::shared_ptr<Postproc>> clone(std::string &) const override {
    auto copy = std::make_shared<RewriteTensorize>(vectorizeInitLoop);
    copy->context = context;
    return std::shared_ptr<Postproc>(copy);
  }

  std::string str() const override {
    return defaultRepr("RewriteTensorize", this);
  }

private:
  bool vectorizeInitLoop;
  const TuneContext *context = nullptr;
};

} // namespace

std::shared_ptr<Postproc>
mlir::tir::ms::createRewriteTensorize(bool vectorizeInitLoop) {
  return std::make_shared<RewriteTensorize>(vectorizeInitLoop);
}
