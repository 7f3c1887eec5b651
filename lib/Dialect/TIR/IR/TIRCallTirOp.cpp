//===- TIRCallTirOp.cpp - calls of prim_funcs from a graph ----------------===//
//
// tir.call_tir: a graph function's call of a prim_func in destination-passing
// style. The verifier checks the call against the callee's signature and the
// callee's body against the contract that makes the call pure: it writes
// only its output buffers.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::tir;

/// "tensor<128x64xf32>" / "memref<...>" for a diagnostic.
static std::string typeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// Whether the callee's parameter `param` takes the buffer of a tensor of
/// type `tensor`: the same element type and rank, each dimension equal or
/// dynamic in the parameter, in default memory.
static bool acceptsTensor(MemRefType param, RankedTensorType tensor) {
  if (param.getElementType() != tensor.getElementType() ||
      param.getRank() != tensor.getRank() || param.getMemorySpace())
    return false;
  for (auto [p, t] : llvm::zip(param.getShape(), tensor.getShape()))
    if (!ShapedType::isDynamic(p) && p != t)
      return false;
  // The call passes row-major buffers: the parameter's layout must take one
  // (the identity, or strides and offset it leaves dynamic).
  if (tensor.hasStaticShape()) {
    auto rowMajor = MemRefType::get(tensor.getShape(), tensor.getElementType());
    return memref::CastOp::areCastCompatible(rowMajor, param);
  }
  return param.getLayout().isIdentity() ||
         llvm::all_of(param.getStridesAndOffset().first, ShapedType::isDynamic);
}

LogicalResult CallTirOp::verify() {
  int64_t dynamic = 0;
  for (Type type : getResultTypes())
    dynamic += cast<RankedTensorType>(type).getNumDynamicDims();
  if (dynamic != static_cast<int64_t>(getDims().size()))
    return emitOpError("results have ")
           << dynamic << " dynamic dimension(s) but the call gives "
           << getDims().size() << " size(s) in dims(...); one per '?'";
  if (std::optional<ArrayRef<int64_t>> inplace = getInplaceIndices()) {
    if (inplace->size() != getNumResults())
      return emitOpError("has ")
             << inplace->size() << " inplace_indices for " << getNumResults()
             << " results; one per result (-1: a buffer of its own)";
    llvm::SmallDenseSet<int64_t> seen;
    for (auto [k, j] : llvm::enumerate(*inplace)) {
      if (j == -1)
        continue;
      if (j < 0 || j >= static_cast<int64_t>(getInputs().size()))
        return emitOpError("result ")
               << k << " is written into input " << j << ", but the call has "
               << getInputs().size() << " inputs";
      if (!seen.insert(j).second)
        return emitOpError("input ") << j << " is written in place twice";
      if (getInputs()[j].getType() != getResult(k).getType())
        return emitOpError("result ")
               << k << " (" << typeText(getResult(k).getType())
               << ") is written into input " << j << " of another type ("
               << typeText(getInputs()[j].getType()) << ")";
    }
  }
  return success();
}

std::optional<unsigned> CallTirOp::getInplaceInput(unsigned index) {
  std::optional<ArrayRef<int64_t>> inplace = getInplaceIndices();
  if (!inplace || index >= inplace->size() || (*inplace)[index] < 0)
    return std::nullopt;
  return static_cast<unsigned>((*inplace)[index]);
}

SmallVector<unsigned> CallTirOp::getOwnOutputs() {
  SmallVector<unsigned> own;
  for (unsigned k = 0, e = getNumResults(); k < e; ++k)
    if (!getInplaceInput(k))
      own.push_back(k);
  return own;
}

ValueRange CallTirOp::getResultDims(unsigned index) {
  unsigned start = 0;
  for (unsigned k = 0; k < index; ++k)
    start += cast<RankedTensorType>(getResult(k).getType()).getNumDynamicDims();
  unsigned count =
      cast<RankedTensorType>(getResult(index).getType()).getNumDynamicDims();
  return getDims().slice(start, count);
}

LogicalResult
CallTirOp::reifyResultShapes(OpBuilder &builder,
                             ReifiedRankedShapedTypeDims &reifiedReturnShapes) {
  for (auto [index, result] : llvm::enumerate(getResults())) {
    auto type = cast<RankedTensorType>(result.getType());
    ValueRange dims = getResultDims(index);
    SmallVector<OpFoldResult> shape;
    unsigned next = 0;
    for (int64_t d : type.getShape())
      shape.push_back(ShapedType::isDynamic(d) ? OpFoldResult(dims[next++])
                                               : builder.getIndexAttr(d));
    reifiedReturnShapes.push_back(shape);
  }
  return success();
}

LogicalResult CallTirOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError("callee '@")
           << getCallee() << "' is not a function of the module";
  FunctionType type = callee.getFunctionType();
  if (type.getNumResults() != 0)
    return emitOpError("callee '@")
           << getCallee()
           << "' returns values; call_tir calls a prim_func that writes its "
              "outputs into buffers it is given";
  SmallVector<unsigned> own = getOwnOutputs();
  unsigned numInputs = getInputs().size(), numOutputs = own.size();
  if (type.getNumInputs() != numInputs + numOutputs)
    return emitOpError("callee '@")
           << getCallee() << "' takes " << type.getNumInputs()
           << " buffers; the call passes " << numInputs << " input(s) and "
           << numOutputs << " output(s)";
  for (unsigned i = 0, e = type.getNumInputs(); i < e; ++i) {
    bool isInput = i < numInputs;
    auto tensor = cast<RankedTensorType>(
        isInput ? getInputs()[i].getType()
                : getResult(own[i - numInputs]).getType());
    auto param = dyn_cast<MemRefType>(type.getInput(i));
    if (!param)
      return emitOpError("parameter ")
             << i << " of '@" << getCallee() << "' is a "
             << typeText(type.getInput(i)) << "; call_tir passes buffers only";
    if (!acceptsTensor(param, tensor)) {
      InFlightDiagnostic diag = emitOpError();
      if (isInput)
        diag << "input " << i;
      else
        diag << "output " << i - numInputs;
      return diag << " is a " << typeText(tensor) << ", but parameter " << i
                  << " of '@" << getCallee() << "' takes a " << typeText(param);
    }
  }
  // The call is pure because the callee writes nothing but its outputs
  // (and the inputs written in place, whose values are results).
  llvm::SmallDenseSet<unsigned> inPlace;
  for (unsigned k = 0, e = getNumResults(); k < e; ++k)
    if (std::optional<unsigned> j = getInplaceInput(k))
      inPlace.insert(*j);
  if (!callee.isExternal())
    for (unsigned i = 0; i < numInputs; ++i)
      if (!inPlace.count(i) &&
          isBufferWritten(callee.getArgument(i), /*strict=*/true)) {
        std::string name = getBufferName(callee.getArgument(i));
        InFlightDiagnostic diag = emitOpError("callee '@")
                                  << getCallee() << "' writes its input " << i;
        if (!name.empty())
          diag << " ('" << name << "')";
        return diag << "; call_tir's callee writes only its outputs";
      }
  return success();
}

/// The callee when it is a declaration of the enclosing module (a packed
/// function), else null.
static func::FuncOp packedCallee(CallTirOp op) {
  auto module = op->getParentOfType<ModuleOp>();
  auto callee =
      module ? module.lookupSymbol<func::FuncOp>(op.getCalleeAttr()) : nullptr;
  return callee && callee.isExternal() ? callee : nullptr;
}

void CallTirOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // A prim_func writes only its outputs (the verifier checks it); a packed
  // function is code the module does not show.
  if (!packedCallee(*this))
    return;
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

Speculation::Speculatability CallTirOp::getSpeculatability() {
  return packedCallee(*this) ? Speculation::NotSpeculatable
                             : Speculation::Speculatable;
}
