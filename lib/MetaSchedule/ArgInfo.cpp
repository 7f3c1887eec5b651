//===- ArgInfo.cpp - what a tuned function takes --------------------------===//

#include "TensorIR/MetaSchedule/ArgInfo.h"

#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Target/TVMScript.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

llvm::json::Value TensorInfo::toJSON() const {
  llvm::json::Array dims;
  for (int64_t d : shape)
    dims.push_back(d);
  return llvm::json::Array{"TENSOR", dtype, std::move(dims)};
}

FailureOr<TensorInfo> TensorInfo::fromJSON(const llvm::json::Value &json,
                                           std::string &error) {
  const llvm::json::Array *items = json.getAsArray();
  if (!items || items->size() != 3 || !(*items)[0].getAsString() ||
      *(*items)[0].getAsString() != "TENSOR") {
    error = "an argument's JSON is [\"TENSOR\", dtype, shape]";
    return failure();
  }
  std::optional<StringRef> dtype = (*items)[1].getAsString();
  const llvm::json::Array *dims = (*items)[2].getAsArray();
  if (!dtype || !dims) {
    error = "a TensorInfo's dtype is a string and its shape a list";
    return failure();
  }
  TensorInfo info;
  info.dtype = dtype->str();
  for (const llvm::json::Value &d : *dims) {
    std::optional<int64_t> size = d.getAsInteger();
    if (!size || *size < 0) {
      error = "a TensorInfo's shape holds sizes (integers >= 0)";
      return failure();
    }
    info.shape.push_back(*size);
  }
  return info;
}

std::string TensorInfo::str() const {
  return "TensorInfo(\"" + dtype + "\", [" +
         llvm::join(llvm::map_range(
                        shape, [](int64_t d) { return std::to_string(d); }),
                    ", ") +
         "])";
}

FailureOr<std::vector<TensorInfo>>
mlir::tir::ms::getArgInfo(FunctionOpInterface func, std::string &error) {
  std::vector<TensorInfo> infos;
  Block &entry = func.getFunctionBody().front();
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    BlockArgument arg = entry.getArgument(i);
    std::string name = "#" + std::to_string(i);
    if (auto n = func.getArgAttrOfType<StringAttr>(i, "tir.name"))
      name = "'" + n.getValue().str() + "'";
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type) {
      error = "argument " + name + " of function '" + func.getName().str() +
              "' is a scalar, not a buffer: MetaSchedule tunes functions "
              "of buffers of static shape";
      return failure();
    }
    if (!type.hasStaticShape()) {
      error = "buffer argument " + name + " of function '" +
              func.getName().str() +
              "' has a runtime dimension: MetaSchedule tunes functions of "
              "buffers of static shape";
      return failure();
    }
    TensorInfo info;
    if (StringAttr unsignedDtype = getUnsignedDtype(arg))
      info.dtype = unsignedDtype.str();
    else
      info.dtype = tvmscript::dtypeName(type.getElementType());
    if (info.dtype.empty()) {
      std::string typeText;
      llvm::raw_string_ostream(typeText) << type.getElementType();
      error = "buffer argument " + name + " of function '" +
              func.getName().str() + "' holds " + typeText +
              ", which has no TVM dtype";
      return failure();
    }
    info.shape.assign(type.getShape().begin(), type.getShape().end());
    infos.push_back(std::move(info));
  }
  return infos;
}

FunctionOpInterface mlir::tir::ms::getEntryFunction(ModuleOp mod) {
  FunctionOpInterface only;
  unsigned count = 0;
  for (auto func : mod.getOps<FunctionOpInterface>()) {
    if (func.isExternal() || isGraphFunction(func))
      continue;
    if (func.getName() == "main")
      return func;
    only = func;
    ++count;
  }
  return count == 1 ? only : FunctionOpInterface();
}

FailureOr<std::vector<TensorInfo>>
mlir::tir::ms::getEntryArgInfo(ModuleOp mod, std::string &error) {
  FunctionOpInterface func = getEntryFunction(mod);
  if (!func) {
    error = "the module has no entry function (one named \"main\", or its "
            "only function)";
    return failure();
  }
  return getArgInfo(func, error);
}
