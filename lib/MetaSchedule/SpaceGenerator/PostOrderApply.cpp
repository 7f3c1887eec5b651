//===- PostOrderApply.cpp - rules applied to every block ------------------===//
//
// TVM's PostOrderApply: the blocks of each function are collected in
// post-order (inner blocks before the blocks around them, the function,
// TVM's root block, last) and found by name in the schedule; then, rule by
// rule, each schedule so far is given to the rule once per block, the
// blocks taken from the end of that list (TVM's order). A block an earlier
// application removed is skipped; a block annotated "schedule_rule" is
// left to ApplyCustomRule.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/MetaSchedule/Analysis.h"
#include "TensorIR/MetaSchedule/SpaceGenerator.h"

#include "TensorIR/Dialect/TIR/Schedule/Query.h"
#include "TensorIR/MetaSchedule/TuneContext.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

/// TVM's BlockCollector: a block random variable per block the filter
/// keeps, in post-order, function by function.
FailureOr<std::vector<RV>>
collectBlocks(const Schedule &schedule,
              const PostOrderApply::BlockFilter &filter, std::string &error) {
  ScheduleState &sch = *schedule;
  MLIRContext *ctx = sch.getContext();
  std::vector<RV> handles;
  for (FunctionOpInterface func : getScheduledFunctions(sch.getPayload())) {
    std::string funcName = func.getName().str();
    llvm::StringSet<> names;
    SmallVector<std::pair<std::string, Operation *>> blocks;
    // The function is the root block, written out or not.
    BlockOp explicitRoot = getExplicitRootBlock(func);
    func->walk<WalkOrder::PostOrder>([&](BlockOp block) {
      if (block != explicitRoot)
        blocks.emplace_back(block.getBlockName().str(), block);
    });
    blocks.emplace_back("root", func);
    std::vector<std::string> collected;
    for (auto &[name, op] : blocks) {
      if (!names.insert(name).second) {
        error = "Duplicated block name " + name + " in function " + funcName +
                " not supported!";
        return failure();
      }
      if (filter) {
        FailureOr<bool> keep = filter(schedule, op, error);
        if (failed(keep))
          return failure();
        if (!*keep)
          continue;
      }
      collected.push_back(name);
    }
    for (const std::string &name : collected) {
      NamedAttribute attrs[] = {
          NamedAttribute(StringAttr::get(ctx, "name"),
                         StringAttr::get(ctx, name)),
          NamedAttribute(StringAttr::get(ctx, "func_name"),
                         StringAttr::get(ctx, funcName))};
      FailureOr<SmallVector<Value>> found =
          sch.apply("get_block", {sch.getRoot()}, attrs, 1, error);
      if (failed(found))
        return failure();
      handles.push_back(sch.getRandomVariable(found->front()));
    }
  }
  return handles;
}

/// What `block` (a handle of `sch`) holds now: its block (or function), or
/// null when a step removed it.
Operation *getBlockOp(ScheduleState &sch, Value block) {
  std::string ignored;
  auto payload = sch.getPayload(block, ignored);
  if (failed(payload) || payload->size() != 1)
    return nullptr;
  return dyn_cast_if_present<Operation *>(payload->front());
}

bool hasCustomRuleAnnotation(Operation *op) {
  auto block = dyn_cast<BlockOp>(op);
  if (!block || !block.getAnnotations())
    return false;
  return isa_and_present<StringAttr>(
      block.getAnnotations()->get("schedule_rule"));
}

} // namespace

FailureOr<std::vector<Schedule>>
PostOrderApply::generateDesignSpace(ModuleOp mod, std::string &error) {
  if (!scheduleRules) {
    error = "PostOrderApply has no schedule rules: " +
            (missingDefaults.empty()
                 ? std::string("give it sch_rules, or initialize it with a "
                               "TuneContext whose target has default rules")
                 : missingDefaults + "; give it sch_rules");
    return failure();
  }
  FailureOr<Schedule> start =
      createTracedSchedule(mod, RandomEngine(randState).forkSeed(), error);
  if (failed(start))
    return failure();
  FailureOr<std::vector<RV>> allBlocks =
      collectBlocks(*start, blockFilter, error);
  if (failed(allBlocks))
    return failure();

  std::vector<Schedule> result{*start};
  // (schedule, blocks not visited yet); a block's random variable is the
  // same in the copies a rule makes.
  std::vector<std::pair<Schedule, std::vector<RV>>> stack;
  for (const std::shared_ptr<ScheduleRule> &rule : *scheduleRules) {
    for (const Schedule &sch : result)
      stack.emplace_back(sch, *allBlocks);
    result.clear();
    while (!stack.empty()) {
      auto [sch, blocks] = std::move(stack.back());
      stack.pop_back();
      if (blocks.empty()) {
        result.push_back(sch);
        continue;
      }
      Value here = sch->getHandle(blocks.back());
      blocks.pop_back();
      Operation *op = here ? getBlockOp(*sch, here) : nullptr;
      if (!op || (!rule->isApplyCustomRule() && hasCustomRuleAnnotation(op))) {
        stack.emplace_back(sch, std::move(blocks));
        continue;
      }
      FailureOr<std::vector<Schedule>> applied = rule->apply(sch, here, error);
      if (failed(applied))
        return failure();
      for (const Schedule &next : *applied)
        stack.emplace_back(next, blocks);
    }
  }
  return result;
}

FailureOr<std::shared_ptr<SpaceGenerator>>
PostOrderApply::clone(std::string &error) const {
  auto copy = std::make_shared<PostOrderApply>();
  copy->blockFilter = blockFilter;
  if (failed(cloneComponentsInto(*copy, error)))
    return failure();
  return std::shared_ptr<SpaceGenerator>(copy);
}
