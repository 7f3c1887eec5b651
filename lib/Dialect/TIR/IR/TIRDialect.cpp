//===- TIRDialect.cpp - TensorIR dialect ----------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/ShapeVars.h"
#include "TensorIR/Dialect/TIR/IR/TIRAttrs.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tir;

#include "TensorIR/Dialect/TIR/IR/TIREnums.cpp.inc"
#include "TensorIR/Dialect/TIR/IR/TIROpsDialect.cpp.inc"

namespace {
/// A graph function's steps inline where another graph function calls it
/// (the compiler inlines graph function calls before bufferization): its
/// call_tir ops, null values and composite operators. Nothing of a
/// prim_func's inlines.
struct TIRInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *call, Operation *callable,
                       bool wouldBeCloned) const final {
    return true;
  }
  bool isLegalToInline(Operation *op, Region *dest, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return isa<CallTirOp, NullValueOp, CompositeOp, YieldOp>(op);
  }
  bool isLegalToInline(Region *dest, Region *src, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return false;
  }
};
} // namespace

void TIRDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "TensorIR/Dialect/TIR/IR/TIROps.cpp.inc"
      >();
  registerAttributes();
  registerTypes();
  addInterfaces<TIRInlinerInterface>();
}

static bool isIdentifier(StringRef s) {
  auto isNameChar = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  return !s.empty() && llvm::all_of(s, isNameChar) && !llvm::isDigit(s.front());
}

/// The types of the arguments of `op` when it is a function, from its
/// signature: argument attributes are verified before the function's own
/// verifier matches its entry block against the signature, and a body may
/// have fewer arguments than the signature (`func.func @f(index) {...}`).
static ArrayRef<Type> getSignatureArgTypes(Operation *op) {
  auto func = dyn_cast<FunctionOpInterface>(op);
  return func ? func.getArgumentTypes() : ArrayRef<Type>();
}

/// tir.dim_vars: one string per dimension of a buffer argument, "" or an
/// identifier, "" for a static dimension; a name that is the tir.name of
/// another argument names an integer or index scalar.
static LogicalResult verifyDimVars(Operation *op, unsigned argIndex,
                                   Attribute value) {
  auto func = dyn_cast<FunctionOpInterface>(op);
  ArrayRef<Type> argTypes = getSignatureArgTypes(op);
  Type argType = argIndex < argTypes.size() ? argTypes[argIndex] : Type();
  auto type = dyn_cast_or_null<MemRefType>(argType);
  auto names = dyn_cast<ArrayAttr>(value);
  auto fail = [&]() {
    return op->emitError("'")
           << TIRDialect::kDimVarsAttrName << "' of argument " << argIndex;
  };
  if (!type && (!argType || isa<IndexType, IntegerType, FloatType>(argType)))
    return fail() << " is only allowed on a buffer (memref) argument";
  if (!type)
    return success(); // A lowered buffer (LLVM's form): no longer checked.
  if (!names || !llvm::all_of(names, llvm::IsaPred<StringAttr>))
    return fail() << " must be an array of strings, one per dimension";
  if (static_cast<int64_t>(names.size()) != type.getRank())
    return fail() << " has " << names.size() << " entries for a rank-"
                  << type.getRank() << " buffer (one per dimension)";
  for (auto [d, attr] : llvm::enumerate(names)) {
    StringRef name = cast<StringAttr>(attr).getValue();
    if (name.empty())
      continue;
    std::optional<AffineSize> form = parseAffineSize(name);
    if (!isIdentifier(name) && (!form || form->terms.empty()))
      return fail()
             << " names dimension " << d << " '" << name
             << "', which is neither an identifier nor an affine form "
                "of identifiers ('n + m', '2 * h - 1') (letters, digits, "
                "'_', not starting with a digit)";
    if (!type.isDynamicDim(d))
      return fail() << " names dimension " << d << " '" << name
                    << "', but that dimension is static (" << type.getDimSize(d)
                    << "); only dynamic dimensions are named";
    for (auto [i, otherType] : llvm::enumerate(argTypes)) {
      auto other =
          func.getArgAttrOfType<StringAttr>(i, TIRDialect::kNameAttrName);
      if (other && other.getValue() == name &&
          !isa<IndexType, IntegerType>(otherType))
        return fail() << " names dimension " << d << " '" << name
                      << "', the name of argument " << i
                      << ", which is not an integer or index scalar";
    }
  }
  return success();
}

LogicalResult TIRDialect::verifyRegionArgAttribute(Operation *op,
                                                   unsigned regionIndex,
                                                   unsigned argIndex,
                                                   NamedAttribute attribute) {
  if (attribute.getName() == kAxisSeparatorsAttrName) {
    // TVM's axis_separators: ascending dimension indices inside the rank
    // of the buffer argument.
    auto seps = dyn_cast<DenseI64ArrayAttr>(attribute.getValue());
    ArrayRef<Type> argTypes = getSignatureArgTypes(op);
    auto type = argIndex < argTypes.size()
                    ? dyn_cast<MemRefType>(argTypes[argIndex])
                    : MemRefType();
    int64_t previous = 0;
    bool ok = seps && type;
    for (int64_t x : ok ? seps.asArrayRef() : ArrayRef<int64_t>()) {
      ok &= x > previous && x < type.getRank();
      previous = x;
    }
    if (!ok)
      return op->emitError("'tir.axis_separators' of argument ")
             << argIndex
             << " must be an array<i64> of ascending dimension indices "
                "between 1 and the rank - 1 of a buffer argument";
    return success();
  }
  if (attribute.getName() == kDimVarsAttrName)
    return verifyDimVars(op, argIndex, attribute.getValue());
  if (attribute.getName() == kDtypeAttrName) {
    ArrayRef<Type> argTypes = getSignatureArgTypes(op);
    auto type = argIndex < argTypes.size()
                    ? dyn_cast<MemRefType>(argTypes[argIndex])
                    : MemRefType();
    auto dtype = dyn_cast<StringAttr>(attribute.getValue());
    auto element =
        type ? dyn_cast<IntegerType>(type.getElementType()) : IntegerType();
    if (!dtype || !element ||
        dtype.getValue() != "uint" + std::to_string(element.getWidth()))
      return op->emitError("'tir.dtype' of argument ")
             << argIndex
             << " must name the unsigned dtype of an integer buffer's "
                "elements (\"uint8\" for memref<...xi8>)";
    return success();
  }
  if (attribute.getName() == kDeclaredLayoutAttrName) {
    // {type = memref<...>, index_map = affine_map<declared -> current>,
    //  pad_value = constant | affine_map<current -> (v)>}
    auto dict = dyn_cast<DictionaryAttr>(attribute.getValue());
    auto declared = dict ? dict.getAs<TypeAttr>("type") : TypeAttr();
    auto memref =
        declared ? dyn_cast<MemRefType>(declared.getValue()) : MemRefType();
    auto map = dict ? dict.getAs<AffineMapAttr>("index_map") : AffineMapAttr();
    ArrayRef<Type> argTypes = getSignatureArgTypes(op);
    auto current = argIndex < argTypes.size()
                       ? dyn_cast<MemRefType>(argTypes[argIndex])
                       : MemRefType();
    bool ok = memref && memref.hasStaticShape() && map && current &&
              map.getValue().getNumSymbols() == 0 &&
              map.getValue().getNumDims() == memref.getRank() &&
              map.getValue().getNumResults() == current.getRank() &&
              memref.getElementType() == current.getElementType();
    if (Attribute pad = ok ? dict.get("pad_value") : Attribute()) {
      auto padMap = dyn_cast<AffineMapAttr>(pad);
      auto typed = dyn_cast<TypedAttr>(pad);
      ok = (typed && typed.getType() == current.getElementType()) ||
           (padMap && padMap.getValue().getNumResults() == 1 &&
            padMap.getValue().getNumDims() == current.getRank());
    }
    if (!ok)
      return op->emitError("'tir.declared_layout' of argument ")
             << argIndex
             << " must be {type = <static memref of the argument's element "
                "type>, index_map = <affine map from its indices to the "
                "argument's>, pad_value = <optional constant or affine map "
                "to one value>}";
    return success();
  }
  if (attribute.getName() == kResultAttrName) {
    // Checked on the buffer; the attribute stays on the pointers that
    // buffer lowers to.
    ArrayRef<Type> argTypes = getSignatureArgTypes(op);
    if (!isa<UnitAttr>(attribute.getValue()) || argIndex >= argTypes.size() ||
        isa<IndexType, IntegerType, FloatType, TensorType>(argTypes[argIndex]))
      return op->emitError("'")
             << kResultAttrName << "' of argument " << argIndex
             << " must be a unit attribute on a buffer (memref) argument";
    return success();
  }
  if (attribute.getName() != kNameAttrName)
    return op->emitError("unknown tir argument attribute '")
           << attribute.getName().getValue() << "'";
  auto name = dyn_cast<StringAttr>(attribute.getValue());
  // A graph function's scalar that is a dimension of a shape parameter
  // (R.Shape(["n * 2", "4"])) is named by the size it is.
  ArrayRef<Type> argTypes = getSignatureArgTypes(op);
  bool scalar = argIndex < argTypes.size() && argTypes[argIndex].isIndex();
  if (name && scalar && !isIdentifier(name.getValue()) &&
      parseAffineSize(name.getValue()))
    return success();
  if (!name || !isIdentifier(name.getValue()))
    return op->emitError("'")
           << kNameAttrName << "' of argument " << argIndex
           << " must be a string that is an identifier (letters, digits, "
              "'_', not starting with a digit)"
           << (scalar ? ", or for an index an affine form of them (\"n * 2\")"
                      : "");
  return success();
}
