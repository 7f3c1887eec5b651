//===- TensorIntrin.cpp - tensor intrinsics by name -----------------------===//

#include "TensorIR/Dialect/TIR/Schedule/TensorIntrin.h"
#include "TensorIR/Dialect/TIR/IR/ThreadDiagnostics.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringMap.h"

#include <mutex>

using namespace mlir;
using namespace mlir::tir;

namespace {

struct Texts {
  std::string desc, impl;
};

std::mutex registryMutex;

llvm::StringMap<Texts> &registry() {
  static llvm::StringMap<Texts> map;
  return map;
}

/// The marked functions of `module` for `name`.
TensorIntrin findMarked(ModuleOp module, StringRef name) {
  TensorIntrin found;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (auto a = func->getAttrOfType<StringAttr>(kTensorIntrinDescAttr);
        a && a.getValue() == name)
      found.desc = func;
    if (auto a = func->getAttrOfType<StringAttr>(kTensorIntrinImplAttr);
        a && a.getValue() == name)
      found.impl = func;
  }
  return found;
}

/// Parses `text` (one func.func) into `module` under a fresh name, marked
/// with `attr` = `name`.
FailureOr<func::FuncOp> addParsed(ModuleOp module, StringRef text,
                                  StringRef name, StringRef part,
                                  StringLiteral attr, std::string &error) {
  MLIRContext *ctx = module.getContext();
  Block scratch;
  std::string diagnostics;
  {
    ThreadDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
      llvm::raw_string_ostream os(diagnostics);
      os << diag << "\n";
      return success();
    });
    if (failed(parseSourceString(text, &scratch, ParserConfig(ctx)))) {
      error = ("the " + part + " of tensor intrinsic '" + name +
               "' does not parse: " + diagnostics)
                  .str();
      return failure();
    }
  }
  func::FuncOp func;
  for (Operation &op : scratch) {
    if (auto f = dyn_cast<func::FuncOp>(op)) {
      if (func) {
        error = ("the " + part + " of tensor intrinsic '" + name +
                 "' holds more than one function")
                    .str();
        return failure();
      }
      func = f;
    }
  }
  if (!func) {
    error = ("the " + part + " of tensor intrinsic '" + name +
             "' holds no function")
                .str();
    return failure();
  }
  func->remove();
  func.setSymName((name + "_" + part).str());
  func.setPrivate();
  func->setAttr(attr, StringAttr::get(ctx, name));
  SymbolTable(module).insert(func);
  return func;
}

} // namespace

LogicalResult mlir::tir::registerTensorIntrin(StringRef name,
                                              StringRef descText,
                                              StringRef implText, bool override,
                                              std::string &error) {
  std::lock_guard<std::mutex> lock(registryMutex);
  auto &map = registry();
  if (!override && map.count(name)) {
    error = ("tensor intrinsic '" + name + "' is already registered").str();
    return failure();
  }
  map[name] = Texts{descText.str(), implText.str()};
  return success();
}

static std::string functionText(func::FuncOp func) {
  std::string s;
  llvm::raw_string_ostream os(s);
  func->print(os);
  return s;
}

LogicalResult mlir::tir::registerTensorIntrin(StringRef name, func::FuncOp desc,
                                              func::FuncOp impl, bool override,
                                              std::string &error) {
  return registerTensorIntrin(name, functionText(desc), functionText(impl),
                              override, error);
}

void mlir::tir::forgetAddedTensorIntrin(TensorIntrin &intrin) {
  if (!intrin.added)
    return;
  intrin.desc->erase();
  intrin.impl->erase();
  intrin = TensorIntrin();
}

void mlir::tir::registerCarriedTensorIntrins(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>()) {
    auto name = func->getAttrOfType<StringAttr>(kTensorIntrinDescAttr);
    if (!name || isTensorIntrinRegistered(name.getValue()))
      continue;
    TensorIntrin found = findMarked(module, name.getValue());
    if (!found.impl)
      continue;
    std::string ignored;
    (void)registerTensorIntrin(name.getValue(), found.desc, found.impl,
                               /*override=*/false, ignored);
  }
}

bool mlir::tir::isTensorIntrinRegistered(StringRef name) {
  std::lock_guard<std::mutex> lock(registryMutex);
  return registry().count(name) != 0;
}

FailureOr<TensorIntrin> mlir::tir::lookupTensorIntrin(Operation *step,
                                                      StringRef name,
                                                      Operation *culprit,
                                                      ScheduleError &error) {
  TensorIntrin found;
  ModuleOp nearest;
  for (Operation *op = step->getParentOp(); op; op = op->getParentOp()) {
    auto module = dyn_cast<ModuleOp>(op);
    if (!module)
      continue;
    if (!nearest)
      nearest = module;
    found = findMarked(module, name);
    if (found.desc || found.impl)
      break;
  }
  if (!found.desc && !found.impl) {
    std::optional<Texts> texts;
    {
      std::lock_guard<std::mutex> lock(registryMutex);
      auto it = registry().find(name);
      if (it != registry().end())
        texts = it->second;
    }
    if (!texts || !nearest) {
      error = {("tensorize: no tensor intrinsic named '" + name +
                "' (register it with tir.TensorIntrin.register, or give its "
                "functions in the transform script's module, marked " +
                kTensorIntrinDescAttr + " / " + kTensorIntrinImplAttr + ")")
                   .str(),
               culprit};
      return failure();
    }
    std::string why;
    FailureOr<func::FuncOp> desc = addParsed(nearest, texts->desc, name, "desc",
                                             kTensorIntrinDescAttr, why);
    FailureOr<func::FuncOp> impl =
        succeeded(desc) ? addParsed(nearest, texts->impl, name, "impl",
                                    kTensorIntrinImplAttr, why)
                        : FailureOr<func::FuncOp>(failure());
    if (failed(impl)) {
      if (succeeded(desc))
        desc->erase();
      error = {"tensorize: " + why, culprit};
      return failure();
    }
    found = {*desc, *impl, /*added=*/true};
  }
  if (!found.desc || !found.impl) {
    error = {("tensorize: tensor intrinsic '" + name + "' has no " +
              (found.desc ? "impl" : "desc") + " function")
                 .str(),
             culprit};
    return failure();
  }
  if (found.desc.isExternal() || found.impl.isExternal()) {
    forgetAddedTensorIntrin(found);
    error = {("tensorize: tensor intrinsic '" + name +
              "' has a function without a body")
                 .str(),
             culprit};
    return failure();
  }
  FunctionType d = found.desc.getFunctionType(),
               i = found.impl.getFunctionType();
  bool same = d.getNumInputs() == i.getNumInputs();
  for (unsigned k = 0; same && k < d.getNumInputs(); ++k) {
    auto a = dyn_cast<MemRefType>(d.getInput(k));
    auto b = dyn_cast<MemRefType>(i.getInput(k));
    same = a && b && a.getShape() == b.getShape() &&
           a.getElementType() == b.getElementType() &&
           a.getMemorySpace() == b.getMemorySpace();
  }
  if (!same) {
    forgetAddedTensorIntrin(found);
    error = {("tensorize: the desc and impl of tensor intrinsic '" + name +
              "' do not take the same buffers (one per parameter, of the "
              "same shape, element type and scope)")
                 .str(),
             culprit};
    return failure();
  }
  return found;
}
