//===- TIRTransformOps.cpp - transform.tir extension ----------------------===//
//
// Thin wrappers: each op reads its handles, calls the schedule library
// (lib/Schedule) and maps the results back to handles.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/TransformOps/TIRTransformOps.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Schedule/Query.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::tir;

#define GET_OP_CLASSES
#include "TensorIR/Dialect/TIR/TransformOps/TIRTransformOps.cpp.inc"

//===----------------------------------------------------------------------===//
// GetBlockOp
//===----------------------------------------------------------------------===//

/// The name of the function enclosing `op`, for diagnostics.
static StringRef enclosingFunctionName(Operation *op) {
  if (auto func = op->getParentOfType<FunctionOpInterface>())
    return func.getName();
  return "<unknown>";
}

DiagnosedSilenceableFailure
transform::GetBlockOp::apply(transform::TransformRewriter &rewriter,
                             transform::TransformResults &results,
                             transform::TransformState &state) {
  SmallVector<Operation *> found;
  for (Operation *scope : state.getPayloadOps(getTarget()))
    for (BlockOp block : findBlocksByName(scope, getName()))
      found.push_back(block);
  if (found.empty())
    return emitSilenceableError()
           << "no tir.block named '" << getName() << "' in the target";
  if (found.size() > 1) {
    DiagnosedSilenceableFailure diag = emitSilenceableError()
                                       << "block name '" << getName()
                                       << "' is ambiguous: " << found.size()
                                       << " blocks have it; pass a handle to "
                                          "one function";
    for (Operation *op : found)
      diag.attachNote(op->getLoc())
          << "in function '" << enclosingFunctionName(op) << "'";
    return diag;
  }
  results.set(cast<OpResult>(getResult()), found);
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// GetLoopsOp
//===----------------------------------------------------------------------===//

LogicalResult transform::GetLoopsOp::verify() {
  if (getLoops().empty())
    return emitOpError("expects at least one result");
  return success();
}

DiagnosedSilenceableFailure
transform::GetLoopsOp::apply(transform::TransformRewriter &rewriter,
                             transform::TransformResults &results,
                             transform::TransformState &state) {
  auto payload = llvm::to_vector(state.getPayloadOps(getTarget()));
  if (payload.size() != 1)
    return emitSilenceableError()
           << "expects a handle to exactly one tir.block, got "
           << payload.size() << " payload ops";
  auto block = dyn_cast<BlockOp>(payload.front());
  if (!block) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableError() << "expects a handle to a tir.block";
    diag.attachNote(payload.front()->getLoc()) << "payload op";
    return diag;
  }
  SmallVector<ForOp> loops = tir::getLoops(block);
  SmallVector<Operation *> ops(loops.begin(), loops.end());
  if (getLoops().size() == 1) {
    results.set(cast<OpResult>(getLoops()[0]), ops);
    return DiagnosedSilenceableFailure::success();
  }
  if (getLoops().size() != ops.size()) {
    DiagnosedSilenceableFailure diag =
        emitSilenceableError()
        << "asks for " << getLoops().size() << " loops, but block '"
        << block.getBlockName() << "' is under " << ops.size();
    diag.attachNote(block.getLoc()) << "block";
    return diag;
  }
  for (auto [result, op] : llvm::zip(getLoops(), ops))
    results.set(cast<OpResult>(result), {op});
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// Extension
//===----------------------------------------------------------------------===//

namespace {
class TIRTransformDialectExtension
    : public transform::TransformDialectExtension<
          TIRTransformDialectExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TIRTransformDialectExtension)

  TIRTransformDialectExtension() {
    declareDependentDialect<TIRDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "TensorIR/Dialect/TIR/TransformOps/TIRTransformOps.cpp.inc"
        >();
  }
};
} // namespace

void mlir::tir::registerTransformDialectExtension(DialectRegistry &registry) {
  registry.addExtensions<TIRTransformDialectExtension>();
}
