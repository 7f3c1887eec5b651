//===- Annotate.cpp - TVM's annotate and unannotate -----------------------===//

#include "Utils.h"

#include "TensorIR/Dialect/TIR/Schedule/Query.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

/// Writes out the root block of `func`: its body (but the terminator) moves
/// into a block "root" that reads and writes nothing, as TVM's does.
static BlockOp makeRootBlockExplicit(FunctionOpInterface func) {
  Block &body = func.getFunctionBody().front();
  OpBuilder builder(func->getContext());
  builder.setInsertionPointToStart(&body);
  BlockRegionsSpec noRegions;
  auto root =
      BlockOp::create(builder, func->getLoc(), "root", ArrayRef<IterVarSpec>(),
                      ValueRange(), nullptr, {}, &noRegions);
  Block *inner = root.getBody();
  // Everything after the new block but the terminator.
  SmallVector<Operation *> moved;
  for (Operation *op = root->getNextNode(); op; op = op->getNextNode())
    if (!op->hasTrait<OpTrait::IsTerminator>())
      moved.push_back(op);
  for (Operation *op : moved)
    op->moveBefore(inner, inner->end());
  return root;
}

/// The op whose annotations `target` names: a loop, a block, or for a
/// function (TVM's root block) its explicit root block, written out when
/// `create` asks for one.
static FailureOr<Operation *> annotatedOp(Operation *target, bool create,
                                          StringRef primitive,
                                          ScheduleError &error) {
  if (isa<ForOp, BlockOp>(target))
    return target;
  if (auto func = dyn_cast<FunctionOpInterface>(target);
      func && !func.isExternal()) {
    // A function that returns values (a graph function) has no root block.
    Operation *terminator = func.getFunctionBody().front().getTerminator();
    if (terminator && terminator->getNumOperands() != 0)
      return refuse(error, target,
                    primitive + ": function '" + func.getName() +
                        "' returns values; only tir functions (TVM's "
                        "PrimFuncs) have a root block to annotate");
    if (BlockOp root = getExplicitRootBlock(func))
      return root.getOperation();
    if (create)
      return makeRootBlockExplicit(func).getOperation();
    return nullptr;
  }
  return refuse(error, target,
                primitive +
                    " applies to a tir.for, a tir.block or a function "
                    "(TVM's root block), not '" +
                    target->getName().getStringRef() + "'");
}

static DictionaryAttr annotationsOf(Operation *target) {
  DictionaryAttr current;
  if (auto loop = dyn_cast<ForOp>(target))
    current = loop.getAnnotationsAttr();
  else if (auto block = dyn_cast<BlockOp>(target))
    current = block.getAnnotationsAttr();
  return current ? current : DictionaryAttr::get(target->getContext());
}

static void setAnnotations(Operation *target, DictionaryAttr annotations) {
  DictionaryAttr value = annotations.empty() ? DictionaryAttr() : annotations;
  if (auto loop = dyn_cast<ForOp>(target)) {
    if (value)
      loop.setAnnotationsAttr(value);
    else
      loop.removeAnnotationsAttr();
    return;
  }
  auto block = cast<BlockOp>(target);
  if (value)
    block.setAnnotationsAttr(value);
  else
    block.removeAnnotationsAttr();
}

LogicalResult mlir::tir::annotate(Operation *target, StringRef key,
                                  Attribute value, ScheduleError &error,
                                  RewriterBase *) {
  if (key.empty())
    return refuse(error, target, "annotate needs a non-empty key");
  FailureOr<Operation *> annotated =
      annotatedOp(target, /*create=*/true, "annotate", error);
  if (failed(annotated))
    return failure();
  NamedAttrList list(annotationsOf(*annotated));
  list.set(key, value);
  setAnnotations(*annotated, list.getDictionary(target->getContext()));
  return success();
}

LogicalResult mlir::tir::unannotate(Operation *target, StringRef key,
                                    ScheduleError &error,
                                    RewriterBase *rewriter) {
  FailureOr<Operation *> annotated =
      annotatedOp(target, /*create=*/false, "unannotate", error);
  if (failed(annotated))
    return failure();
  if (!*annotated || !annotationsOf(*annotated).get(key))
    return refuse(error, target,
                  "unannotate: there is no annotation '" + key + "' to remove");
  NamedAttrList list(annotationsOf(*annotated));
  list.erase(key);
  setAnnotations(*annotated, list.getDictionary(target->getContext()));
  // A root block left with no annotation is the function's body again.
  auto root = dyn_cast<BlockOp>(*annotated);
  if (isa<FunctionOpInterface>(target) && !root.getAnnotationsAttr()) {
    // Through the rewriter when there is one, so that handles to the
    // block learn it is gone.
    Block *inner = root.getBody();
    while (!inner->empty())
      inner->front().moveBefore(root);
    if (rewriter)
      rewriter->eraseOp(root);
    else
      root->erase();
  }
  return success();
}
