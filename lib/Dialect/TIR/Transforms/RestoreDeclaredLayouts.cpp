//===- RestoreDeclaredLayouts.cpp - declared signatures for building ------===//
//
// A parameter that transform_layout re-laid out takes its declared type
// back; the function works on a buffer of the scheduled layout, copied in
// from and out to the caller's (see the pass's description).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIRBuilders.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"
#include "TensorIR/Dialect/TIR/Transforms/Passes.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::tir {
#define GEN_PASS_DEF_TIRRESTOREDECLAREDLAYOUTSPASS
#include "TensorIR/Dialect/TIR/Transforms/Passes.h.inc"
} // namespace mlir::tir

using namespace mlir;
using namespace mlir::tir;

/// Parameter `i` of `func`, laid out as `layout` says, back to its declared
/// type.
static void restoreParameter(FunctionOpInterface func, unsigned i,
                             DictionaryAttr layout) {
  Block &entry = func.getFunctionBody().front();
  BlockArgument arg = entry.getArgument(i);
  auto current = cast<MemRefType>(arg.getType());
  auto declared = cast<MemRefType>(layout.getAs<TypeAttr>("type").getValue());
  AffineMap map = layout.getAs<AffineMapAttr>("index_map").getValue();
  Attribute pad = layout.get("pad_value");
  Location loc = arg.getLoc();
  std::string name = "arg" + std::to_string(i);
  if (auto n = func.getArgAttrOfType<StringAttr>(i, TIRDialect::kNameAttrName))
    name = n.getValue().str();

  OpBuilder b(func.getContext());
  b.setInsertionPointToStart(&entry);
  // The axis separators belong to the scheduled layout: they go with it.
  auto separators = func.getArgAttrOfType<DenseI64ArrayAttr>(
      i, TIRDialect::kAxisSeparatorsAttrName);
  Value buffer =
      AllocBufferOp::create(b, loc, current, ValueRange(),
                            b.getStringAttr(name + "_layout"), separators)
          .getBuffer();
  func.removeArgAttr(i, TIRDialect::kAxisSeparatorsAttrName);
  // The copies go after the function's leading allocations.
  Block::iterator afterAllocs = entry.begin();
  while (afterAllocs != entry.end() && isa<AllocBufferOp>(&*afterAllocs))
    ++afterAllocs;
  b.setInsertionPoint(&entry, afterAllocs);
  bool reads = false, writes = false;
  for (Operation *user : arg.getUsers()) {
    if (auto store = dyn_cast<StoreOp>(user)) {
      writes |= store.getBuffer() == arg;
    } else if (isa<LoadOp>(user)) {
      reads = true;
    } else if (!isa<BlockOp>(user)) {
      // An opaque use (a call taking the buffer) may read and write it.
      reads = writes = true;
    }
  }
  arg.replaceAllUsesWith(buffer);

  Type element = current.getElementType();
  // The parameter still has the scheduled type while the copies are built.
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(declared.getRank(), func.getContext());
  // Copied in also when only written: the elements the function leaves
  // alone go back to the caller as they were.
  bool copyIn = reads || writes;
  if (copyIn && pad)
    createSpatialNest(
        b, loc, name + "_layout_pad", current.getShape(), "ax", "v",
        [&](OpBuilder &nb, Location l, ValueRange v) {
          Value value;
          if (auto padMap = dyn_cast<AffineMapAttr>(pad)) {
            Value index = affine::expandAffineExpr(
                nb, l, padMap.getValue().getResult(0), v, {});
            value = arith::IndexCastOp::create(nb, l, element, index);
          } else {
            value = arith::ConstantOp::create(nb, l, cast<TypedAttr>(pad));
          }
          StoreOp::create(nb, l, value, buffer, v);
        });
  if (copyIn)
    createSpatialNest(b, loc, name + "_layout_in", declared.getShape(), "ax",
                      "v", [&](OpBuilder &nb, Location l, ValueRange v) {
                        Value x = LoadOp::create(nb, l, arg, identity, v);
                        StoreOp::create(nb, l, x, buffer, map, v);
                      });
  if (writes) {
    for (Block &block : func.getFunctionBody())
      if (Operation *ret = block.getTerminator();
          ret && ret->hasTrait<OpTrait::ReturnLike>()) {
        b.setInsertionPoint(ret);
        createSpatialNest(b, loc, name + "_layout_out", declared.getShape(),
                          "ax", "v",
                          [&](OpBuilder &nb, Location l, ValueRange v) {
                            Value x = LoadOp::create(nb, l, buffer, map, v);
                            StoreOp::create(nb, l, x, arg, identity, v);
                          });
      }
  }
  arg.setType(declared);
  func.removeArgAttr(i, TIRDialect::kDeclaredLayoutAttrName);
}

namespace {
struct TIRRestoreDeclaredLayoutsPass
    : tir::impl::TIRRestoreDeclaredLayoutsPassBase<
          TIRRestoreDeclaredLayoutsPass> {
  void runOnOperation() override {
    getOperation()->walk([](FunctionOpInterface func) {
      if (func.isExternal())
        return;
      bool changed = false;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        if (auto layout = func.getArgAttrOfType<DictionaryAttr>(
                i, TIRDialect::kDeclaredLayoutAttrName)) {
          restoreParameter(func, i, layout);
          changed = true;
        }
      if (!changed)
        return;
      SmallVector<Type> inputs;
      for (BlockArgument arg : func.getFunctionBody().front().getArguments())
        inputs.push_back(arg.getType());
      func.setType(
          FunctionType::get(func->getContext(), inputs, func.getResultTypes()));
    });
  }
};
} // namespace
