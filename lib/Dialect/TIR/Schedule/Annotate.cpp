//===- Annotate.cpp - TVM's annotate and unannotate -----------------------===//

#include "Utils.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::sched;

static FailureOr<DictionaryAttr>
annotationsOf(Operation *target, StringRef primitive, ScheduleError &error) {
  if (auto loop = dyn_cast<ForOp>(target))
    return loop.getAnnotationsAttr()
               ? loop.getAnnotationsAttr()
               : DictionaryAttr::get(target->getContext());
  if (auto block = dyn_cast<BlockOp>(target))
    return block.getAnnotationsAttr()
               ? block.getAnnotationsAttr()
               : DictionaryAttr::get(target->getContext());
  return refuse(error, target,
                primitive + " applies to a tir.for or a tir.block, not '" +
                    target->getName().getStringRef() + "'");
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
                                  Attribute value, ScheduleError &error) {
  FailureOr<DictionaryAttr> current = annotationsOf(target, "annotate", error);
  if (failed(current))
    return failure();
  if (key.empty())
    return refuse(error, target, "annotate needs a non-empty key");
  NamedAttrList list(*current);
  list.set(key, value);
  setAnnotations(target, list.getDictionary(target->getContext()));
  return success();
}

LogicalResult mlir::tir::unannotate(Operation *target, StringRef key,
                                    ScheduleError &error) {
  FailureOr<DictionaryAttr> current =
      annotationsOf(target, "unannotate", error);
  if (failed(current))
    return failure();
  if (!current->get(key))
    return refuse(error, target,
                  "unannotate: there is no annotation '" + key + "' to remove");
  NamedAttrList list(*current);
  list.erase(key);
  setAnnotations(target, list.getDictionary(target->getContext()));
  return success();
}
