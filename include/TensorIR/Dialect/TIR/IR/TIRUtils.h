//===- TIRUtils.h - parser and verifier helpers for tir ---------*- C++ -*-===//
//
// Pieces of syntax shared by the tir parsers (bounds, names, annotations),
// the storage-scope rule, and how diagnostics name a location. Interval
// reasoning lives in the analysis library
// (TensorIR/Dialect/TIR/Arith/Interval.h).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_DIALECT_TIR_IR_TIRUTILS_H
#define TENSORIR_DIALECT_TIR_IR_TIRUTILS_H

#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Value.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringMap.h"

namespace mlir {
class RewriterBase;
} // namespace mlir

namespace mlir::tir {

/// "file:line:col" of the first file location in `loc` (through fused and
/// call-site locations), else `loc` printed: where diagnostics point.
std::string describeLocation(Location loc);

/// The first line of `op` as printed, without its regions: how messages
/// quote an op.
std::string describeOpHeader(Operation *op);

/// Parses an integer literal or an `index` SSA name. A name is appended to
/// `dynamic` and `value` becomes ShapedType::kDynamic.
ParseResult parseStaticOrDynamicIndex(
    OpAsmParser &parser, int64_t &value,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &dynamic);

/// The name hint of an SSA name as written (`%vi` -> "vi"), or "" for names
/// the printer makes up anyway (`%0`).
StringRef getNameHint(const OpAsmParser::UnresolvedOperand &name);

/// Parses `[annotations {...}] [attributes {...}]`, the tail of tir.for and
/// tir.block headers; the annotations go to the `annotations` attribute.
ParseResult parseAnnotationsAndAttrDict(OpAsmParser &parser,
                                        OperationState &result);

/// Whether `scope` is a storage scope the dialect knows.
bool isValidStorageScope(StringRef scope);

/// Whether a buffer of storage scope `scope` is shared by the iterations of
/// a loop bound to `threadTag`, so that a region needed in one iteration
/// covers what all of them need (TVM's rule on storage and thread ranks):
/// shared memory across threadIdx and virtual threads, warp memory across
/// threadIdx.x. Global buffers, where TVM relaxes nothing more, and local
/// ones are not.
bool isStorageSharedAcrossThread(StringRef scope, StringRef threadTag);

/// The storage scope of a buffer: its memory space, "global" without one.
StringRef getStorageScope(MemRefType type);

/// The name TVMScript shows for a buffer: an allocation's `buffer_name`, a
/// function parameter's `tir.name`; "" when it has none.
std::string getBufferName(Value buffer);

/// The memory a buffer value is, through views: tir.match_buffer,
/// view-like ops (subview, reinterpret_cast, expand_shape, cast, ...), and
/// any other side-effect-free op that makes a buffer of one buffer.
Value getBufferStorage(Value buffer);

/// The element type of TVM's dtype `dtype` ("float16", "int8", "uint8",
/// "bool", ...; an unsigned dtype as the signless integer of its width,
/// which a buffer's `tir.dtype` marks unsigned); null for a name that is
/// not a scalar dtype.
Type getDtypeType(MLIRContext *context, StringRef dtype);

/// The unsigned dtype ("uint8", ...) TVMScript gave a buffer, which its
/// memref (signless) does not say: the `tir.dtype` of the parameter or
/// allocation it is, or views (tir.match_buffer); null for any other.
StringAttr getUnsignedDtype(Value buffer);

/// The names `tir.dim_vars` gives the dimensions of parameter `arg` of
/// `func` ("" for a dimension it names no variable for; empty without the
/// attribute): TVMScript's shape variables.
SmallVector<StringRef> getDimVarNames(FunctionOpInterface func, unsigned arg);

/// The shape variable `op` reads, when it is a `memref.dim` of a parameter
/// at the function's entry at a dimension tir.dim_vars names (how the body
/// reads a shape variable); "" otherwise.
StringRef getShapeVarRead(Operation *op);
/// Checks the memory space of a buffer type; the empty string when valid.
std::string checkBufferMemorySpace(MemRefType type);

/// Whether the IR may write the buffer `buffer`: a store, a block that lists
/// it in `writes`, a call of a function that writes it, or any use tir does
/// not know to be a read. Memref views of the buffer are followed. With
/// `strict` (a proof that nothing writes it, as call_tir's purity needs),
/// tir.match_buffer views are followed too, and any other use that gives
/// the buffer on (an arith.select, an scf.if yielding it) counts as a write.
bool isBufferWritten(Value buffer, bool strict = false);

/// Whether `func` is a graph function (TVM's Relax function): tensors in its
/// signature, or ops on tensors or tir.call_tir ops in its body.
bool isGraphFunction(FunctionOpInterface func);

/// The prim_funcs graph passes create (LegalizeOps', FuseOps'): one
/// per computation, named as it asks, numbered when the name is taken.
class CreatedFunctions {
public:
  explicit CreatedFunctions(ModuleOp module)
      : module(module), symbols(module) {}

  /// `func` (private, not yet in the module) added under `name` (numbered
  /// when taken: name, name1, ...) before the function holding `anchor`,
  /// or, when a function created before computes the same (the same body
  /// and signature), that one (and `func` erased).
  func::FuncOp install(func::FuncOp func, StringRef name, Operation *anchor);

  SymbolTable &getSymbols() { return symbols; }

private:
  ModuleOp module;
  SymbolTable symbols;
  /// A created function's text with its name left out -> the function.
  llvm::StringMap<func::FuncOp> created;
};

/// Makes the sizes `func` reads of dynamic dimensions one value each: a
/// memref.dim of a tir.alloc_buffer becomes the size it was allocated
/// with, and equal reads are one (common subexpressions eliminated).
void unifySizeReads(func::FuncOp func);

/// A positive integer known to divide the runtime value of `v` (an index
/// or integer): through constants, products, sums, differences, negations
/// and casts (`n * 32 + 64`: 32); 1 where nothing is known, 0 for a
/// constant 0 (which every integer divides).
int64_t getKnownDivisor(Value v);

/// A list of integers an annotation holds (TVM's Array<Integer>): an array
/// of signless integer attributes or a dense i64 array; nullopt otherwise.
std::optional<SmallVector<int64_t>> readIntegerList(Attribute attr);

/// Erases `loop` (whose body is empty or moved out) and then the
/// computations of its bounds that nothing else uses (`n * 32` computed
/// before it).
void eraseLoop(RewriterBase &rewriter, Operation *loop);

/// Erases `parent` and the loops around it, up to `root` (exclusive; null:
/// as far as loops go), while they are empty once the pure index
/// computations left without uses are gone (what a primitive that moves or
/// removes a block, or a pass that erases one, leaves behind).
void eraseEmptyLoops(RewriterBase &rewriter, Operation *parent,
                     Operation *root = nullptr);

} // namespace mlir::tir

#endif // TENSORIR_DIALECT_TIR_IR_TIRUTILS_H
