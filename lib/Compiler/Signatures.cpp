//===- Signatures.cpp - the runtime's signature table of a module ---------===//
//
// What the runtime knows of each public function of a built module: its
// arguments (names, element types, shapes, which it writes, which are a
// graph function's results), the conditions on their sizes, and how its
// results form tuples (TensorIR/Runtime/Runtime.h's FunctionInfo).
//
//===----------------------------------------------------------------------===//

#include "SizeBounds.h"
#include "TensorIR/Compiler/Compiler.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIRTypes.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdio>
#include <functional>

using namespace mlir;
using namespace mlir::tir;
namespace rt = mlir::tir::runtime;

static std::optional<rt::DataType> dataTypeOf(Type type) {
  if (type.isIndex())
    return rt::DataType{rt::DataType::Int, 64};
  if (auto i = dyn_cast<IntegerType>(type)) {
    unsigned w = i.getWidth();
    if (w == 1)
      return rt::DataType{rt::DataType::Bool, 1};
    if (w != 8 && w != 16 && w != 32 && w != 64)
      return std::nullopt;
    return rt::DataType{i.isUnsigned() ? rt::DataType::UInt : rt::DataType::Int,
                        static_cast<uint8_t>(w)};
  }
  if (type.isBF16())
    return rt::DataType{rt::DataType::BFloat, 16};
  if (isa<Float8E4M3FNType>(type))
    return rt::DataType{rt::DataType::Float8E4M3FN, 8};
  if (isa<Float8E5M2Type>(type))
    return rt::DataType{rt::DataType::Float8E5M2, 8};
  if (type.isF16() || type.isF32() || type.isF64())
    return rt::DataType{rt::DataType::Float,
                        static_cast<uint8_t>(type.getIntOrFloatBitWidth())};
  return std::nullopt;
}

static std::string argumentName(func::FuncOp func, unsigned index) {
  if (auto name =
          func.getArgAttrOfType<StringAttr>(index, TIRDialect::kNameAttrName))
    return name.str();
  if (auto loc = dyn_cast<NameLoc>(func.getArgument(index).getLoc()))
    return loc.getName().str();
  return "arg" + std::to_string(index);
}

/// `attr` as JSON (arrays, dictionaries, integers and strings); false for
/// another attribute.
static bool writeJson(Attribute attr, std::string &out) {
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    out += "[";
    for (auto [k, entry] : llvm::enumerate(array)) {
      if (k)
        out += ",";
      if (!writeJson(entry, out))
        return false;
    }
    out += "]";
    return true;
  }
  if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    out += "{";
    for (auto [k, entry] : llvm::enumerate(dict)) {
      if (k)
        out += ",";
      out += "\"" + entry.getName().str() + "\":";
      if (!writeJson(entry.getValue(), out))
        return false;
    }
    out += "}";
    return true;
  }
  if (auto integer = dyn_cast<IntegerAttr>(attr)) {
    out += std::to_string(integer.getInt());
    return true;
  }
  if (auto str = dyn_cast<StringAttr>(attr)) {
    out += "\"";
    for (char c : str.getValue()) {
      if (c == '"' || c == '\\') {
        out += '\\';
        out += c;
      } else if (static_cast<unsigned char>(c) < 0x20) {
        char escaped[8];
        std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
        out += escaped;
      } else {
        out += c;
      }
    }
    out += "\"";
    return true;
  }
  return false;
}

/// The function's interface (FunctionInfo::interface): its parameters'
/// nesting when it takes a shape, the kinds of its out-parameters when a
/// result is a shape or an integer, and its arguments' notes ("" when
/// none of these).
static FailureOr<std::string> interfaceOf(func::FuncOp func) {
  std::string params, results;
  auto nesting =
      func->getAttrOfType<ArrayAttr>(TIRDialect::kParamNestingAttrName);
  if (nesting && llvm::any_of(nesting, [](Attribute entry) {
        auto dict = dyn_cast<DictionaryAttr>(entry);
        return dict && dict.get("shape");
      })) {
    if (!writeJson(nesting, params))
      return failure();
  }
  if (auto kinds =
          func->getAttrOfType<ArrayAttr>(TIRDialect::kResultKindsAttrName)) {
    // Kinds are per result; the out-parameters are the results that are
    // no argument, in order (tir.result_nesting: -1 - j is argument j).
    SmallVector<int64_t> outputOf;
    std::function<void(ArrayAttr)> flatten = [&](ArrayAttr level) {
      for (Attribute entry : level) {
        if (auto inner = dyn_cast<ArrayAttr>(entry))
          flatten(inner);
        else if (auto index = dyn_cast<IntegerAttr>(entry))
          outputOf.push_back(index.getInt());
      }
    };
    if (auto resultNesting =
            func->getAttrOfType<ArrayAttr>(TIRDialect::kResultNestingAttrName))
      flatten(resultNesting);
    else
      for (int64_t k = 0, e = kinds.size(); k < e; ++k)
        outputOf.push_back(k);
    if (outputOf.size() != kinds.size())
      return failure();
    int64_t outputs =
        llvm::count_if(outputOf, [](int64_t i) { return i >= 0; });
    SmallVector<std::string> perOutput(outputs, "tensor");
    for (auto [k, kind] : llvm::enumerate(kinds)) {
      auto text = dyn_cast<StringAttr>(kind);
      if (!text)
        return failure();
      if (outputOf[k] >= 0 && outputOf[k] < outputs)
        perOutput[outputOf[k]] = text.str();
    }
    results = "[";
    for (auto [k, kind] : llvm::enumerate(perOutput))
      results += (k ? ",\"" : "\"") + kind + "\"";
    results += "]";
  }
  std::string notes;
  if (auto attr =
          func->getAttrOfType<DictionaryAttr>(TIRDialect::kParamNotesAttrName))
    if (!writeJson(attr, notes))
      return failure();
  SmallVector<std::string> fields;
  if (!params.empty())
    fields.push_back("\"params\":" + params);
  if (!results.empty())
    fields.push_back("\"results\":" + results);
  if (!notes.empty())
    fields.push_back("\"notes\":" + notes);
  if (auto packed = func->getAttrOfType<DictionaryAttr>(
          TIRDialect::kPackedResultAttrName)) {
    std::string key;
    auto keyAttr = packed.getAs<StringAttr>("key");
    if (!keyAttr || !writeJson(keyAttr, key))
      return failure();
    fields.push_back("\"returned\":" + key);
  }
  if (fields.empty())
    return std::string();
  return "{" + llvm::join(fields, ",") + "}";
}

FailureOr<std::vector<rt::FunctionInfo>>
mlir::tir::collectSignatures(ModuleOp module) {
  std::vector<rt::FunctionInfo> functions;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    if (func.getNumResults() != 0)
      return func.emitError("returns values; the runtime calls functions "
                            "that write their results into buffers"),
             failure();
    rt::FunctionInfo info;
    info.name = func.getSymName().str();
    info.tupleResult = func->hasAttr(TIRDialect::kTupleResultAttrName);
    if (auto nesting = func->getAttrOfType<ArrayAttr>(
            TIRDialect::kResultNestingAttrName)) {
      // "[0,[1,2]]": the results' indices, an array per tuple.
      std::function<bool(ArrayAttr, std::string &)> write =
          [&](ArrayAttr level, std::string &out) {
            out += "[";
            for (auto [k, entry] : llvm::enumerate(level)) {
              if (k)
                out += ",";
              if (auto inner = dyn_cast<ArrayAttr>(entry)) {
                if (!write(inner, out))
                  return false;
              } else if (auto index = dyn_cast<IntegerAttr>(entry)) {
                out += std::to_string(index.getInt());
              } else {
                return false;
              }
            }
            out += "]";
            return true;
          };
      if (!write(nesting, info.resultNesting))
        return func.emitError("malformed ")
                   << TIRDialect::kResultNestingAttrName,
               failure();
    }
    FailureOr<std::string> interface = interfaceOf(func);
    if (failed(interface))
      return func.emitError("malformed ")
                 << TIRDialect::kParamNestingAttrName << ", "
                 << TIRDialect::kResultKindsAttrName << ", "
                 << TIRDialect::kParamNotesAttrName << " or "
                 << TIRDialect::kPackedResultAttrName,
             failure();
    info.interface = *interface;
    llvm::StringSet<> names;
    for (unsigned index = 0, e = func.getNumArguments(); index < e; ++index) {
      BlockArgument arg = func.getArgument(index);
      rt::ArgInfo a;
      a.name = argumentName(func, index);
      auto fail = [&](const Twine &why) {
        func.emitError("argument ") << index << " ('" << a.name << "') " << why;
        return failure();
      };
      if (!names.insert(a.name).second)
        return fail("has the same name as an earlier argument");
      Type type = arg.getType();
      if (auto memref = dyn_cast<MemRefType>(type)) {
        auto dtype = dataTypeOf(memref.getElementType());
        if (!dtype)
          return fail("has element type " +
                      llvm::formatv("{0}", memref.getElementType()).str() +
                      ", which the runtime does not pass");
        if (memref.getMemorySpace())
          return fail("is in a memory space; the CPU runtime passes buffers "
                      "in default memory");
        a.dtype = *dtype;
        // A uint buffer (TVMScript's dtype, kept on the parameter) takes
        // unsigned arrays.
        if (getUnsignedDtype(arg))
          a.dtype.code = rt::DataType::UInt;
        a.shape.assign(memref.getShape().begin(), memref.getShape().end());
        for (int64_t &d : a.shape)
          if (ShapedType::isDynamic(d))
            d = -1;
        if (!memref.getLayout().isIdentity()) {
          auto strided = dyn_cast<StridedLayoutAttr>(memref.getLayout());
          if (!strided || strided.getOffset() != 0)
            return fail("has a layout other than the identity or strides at "
                        "offset 0, which the runtime does not pass");
          for (int64_t s : strided.getStrides())
            a.strides.push_back(ShapedType::isDynamic(s) ? -1 : s);
        }
        a.written = isBufferWritten(arg);
        if (func.getArgAttr(index, TIRDialect::kResultAttrName))
          a.written = a.result = true;
      } else {
        auto dtype = dataTypeOf(type);
        if (!dtype || type.isF16() || type.isBF16() ||
            isa<Float8E4M3FNType, Float8E5M2Type>(type))
          return fail("is a scalar of type " +
                      llvm::formatv("{0}", type).str() +
                      "; scalars are integers, index, f32 or f64");
        a.isBuffer = false;
        a.dtype = *dtype;
      }
      info.args.push_back(std::move(a));
    }
    // What the buffers must hold given the scalars and the other buffers,
    // checked at every call.
    std::vector<std::vector<rt::SizeBound>> bounds = deriveSizeBounds(func);
    for (unsigned index = 0, e = info.args.size(); index < e; ++index)
      info.args[index].bounds = std::move(bounds[index]);
    functions.push_back(std::move(info));
  }
  return functions;
}
