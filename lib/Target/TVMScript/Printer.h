//===- Printer.h - the TVMScript printer's state (internal) -----*- C++ -*-===//
//
// One Printer prints one tir function as TVMScript, the inverse of
// python/tensorir/script/parser.py. Pure values are printed inline where
// they are used once and nothing with side effects comes between; every
// other value gets a name (`v3 = A[vi] * 2.0`), which the parser treats as
// an alias. Expressions.cpp prints values, Statements.cpp loops, blocks and
// the other statements, TVMScript.cpp functions and modules.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_LIB_TARGET_TVMSCRIPT_PRINTER_H
#define TENSORIR_LIB_TARGET_TVMSCRIPT_PRINTER_H

#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Target/TVMScript.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir::tir::tvmscript {

/// Four spaces per level.
std::string pad(int indent);

/// "(8,)" or "(128, 128)".
std::string tuple(ArrayRef<std::string> items);

/// A number as the parser reads it back exactly (17 significant digits).
std::string formatDouble(double value);

/// The tensor constants of a module's graph functions, in the order they
/// are first printed (TVM's metadata["relax.expr.Constant"]).
class GraphConstants {
public:
  /// The index of `value` (added if new).
  unsigned add(ElementsAttr value, StringRef dtype);
  bool empty() const { return entries.empty(); }
  /// `metadata = {"relax.expr.Constant": [(dtype, shape, data), ...]}`.
  void print(llvm::raw_ostream &os) const;

private:
  SmallVector<std::pair<ElementsAttr, std::string>> entries;
};

/// Prints a graph function (a func.func on tensors) as @R.function (Graph.cpp);
/// `inModule`: callees are `cls.<name>` of the @I.ir_module class.
bool printGraphFunction(func::FuncOp func, GraphConstants &constants,
                        bool inModule, std::string &error,
                        llvm::raw_ostream &os);

class Printer {
public:
  /// TVM's name for a scalar type ("float32", "bool", ...), "" if none.
  std::string dtype(Type t);

  explicit Printer(std::string &error) : error(error) {}

  /// Prints `func` as a @T.prim_func; false (with the error set) when some
  /// op has no TVMScript form.
  bool function(func::FuncOp func, llvm::raw_ostream &os);
  /// printTVMScriptFragment.
  bool fragment(func::FuncOp func, llvm::raw_ostream &os);

private:
  //===--- Expressions.cpp ------------------------------------------------===//

  /// Records the first reason printing fails; always false.
  bool fail(Operation *op, const std::string &why);

  /// Python text for an affine expression; parentheses only where Python's
  /// precedence needs them.
  std::string affine(AffineExpr e, ArrayRef<std::string> dims,
                     ArrayRef<std::string> syms);
  std::string affine(AffineExpr e, ArrayRef<std::string> dims,
                     ArrayRef<std::string> syms, int &precedence);

  /// A loop bound: a number, or the value's name or expression (a function
  /// argument, `T.vscale() * 4`, `(n + 15) // 16`, ...).
  std::string bound(OpFoldResult b);

  /// A value's name, or the expression of an unnamed index value (a
  /// region's `affine.apply` input, say).
  std::string name(Value v);

  /// Whether `v` reads as unsigned when printed: a load of a uint buffer
  /// (tir.dtype), or arithmetic on one; an unsigned operation prints only
  /// when an operand does (its Python form is the signed one's).
  bool isUnsigned(Value v);

  /// The expression of `v` (its name if it has one).
  bool expr(Value v, std::string &out);
  /// `T.callee(args...)` for a tir.call.
  bool callExpr(CallOp call, std::string &out);
  /// A dictionary of annotations as a Python dict.
  std::string dict(DictionaryAttr dict);

  //===--- Statements.cpp -------------------------------------------------===//

  bool statement(Operation &op, int indent, llvm::raw_ostream &os);
  bool blockBody(Block &block, int indent, llvm::raw_ostream &os);
  bool forLoop(ForOp loop, int indent, llvm::raw_ostream &os);
  bool tirBlock(BlockOp block, int indent, llvm::raw_ostream &os);
  /// `X = T.match_buffer(A[region], shape, dtype, offset_factor=1)`.
  bool matchBuffer(MatchBufferOp match, int indent, llvm::raw_ostream &os);
  /// A buffer region `A[start, lo:hi, ...]` (starts over `inputs`).
  std::string region(Value buffer, AffineMap map, ArrayRef<std::string> inputs);
  /// `buffer[start:end, ...]` for each buffer of a block's reads or writes.
  void regions(BlockOp block, const char *keyword, OperandRange buffers,
               std::optional<ArrayAttr> maps, int indent,
               llvm::raw_ostream &os);

  //===--- Names ----------------------------------------------------------===//

  /// A name not visible in the enclosing scopes (sibling loops and blocks
  /// reuse names, as TVMScript does).
  std::string fresh(StringRef hint);
  void push() { used.emplace_back(); }
  void pop() { used.pop_back(); }

  std::string &error;
  llvm::DenseMap<Value, std::string> names;
  SmallVector<llvm::StringSet<>> used{llvm::StringSet<>()};
  /// Expressions of inlined values.
  llvm::DenseMap<Value, std::string> inlined;
};

} // namespace mlir::tir::tvmscript

#endif // TENSORIR_LIB_TARGET_TVMSCRIPT_PRINTER_H
