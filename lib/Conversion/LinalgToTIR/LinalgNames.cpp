//===- LinalgNames.cpp - TVM's names for the blocks of linalg ops ---------===//
//
// The names TVM gives the compute a front end's operator becomes (TOPI and
// Relax's legalization): a matrix product is block "matmul" over i0, i1
// with reduce axis k; conv2d in NCHW is "conv2d_nchw" over nn, ff, yy, xx,
// reducing rc, ry, rx; an element-wise add is "T_add" over ax0, ...; a
// reduction "<input>_red" reducing k0, ...; a te.compute without a name
// "compute" over i0, ... . A schedule written for TVM's IR then finds the
// same blocks (sch.get_block("matmul")).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Conversion/LinalgToTIR/LinalgToTIR.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::tir;

/// TOPI's name of an element-wise operator ("" when it has none here).
static StringRef elementwiseName(StringRef op) {
  return llvm::StringSwitch<StringRef>(op)
      .Cases({"add", "arith.addf", "arith.addi"}, "T_add")
      .Cases({"sub", "arith.subf", "arith.subi"}, "T_subtract")
      .Cases({"mul", "arith.mulf", "arith.muli"}, "T_multiply")
      .Cases({"div", "div_unsigned", "arith.divf", "arith.divsi"}, "T_divide")
      .Cases({"max", "arith.maximumf", "arith.maxsi"}, "T_maximum")
      .Cases({"min", "arith.minimumf", "arith.minsi"}, "T_minimum")
      .Cases({"powf", "math.powf"}, "T_power")
      .Cases({"select", "arith.select"}, "T_where")
      .Cases({"exp", "math.exp"}, "T_exp")
      .Cases({"log", "math.log"}, "T_log")
      .Cases({"abs", "math.absf"}, "T_abs")
      .Cases({"ceil", "math.ceil"}, "T_ceil")
      .Cases({"floor", "math.floor"}, "T_floor")
      .Cases({"negf", "arith.negf"}, "T_negative")
      .Cases({"round", "math.round"}, "T_round")
      .Cases({"sqrt", "math.sqrt"}, "T_sqrt")
      .Cases({"rsqrt", "math.rsqrt"}, "T_rsqrt")
      .Cases({"tanh", "math.tanh"}, "T_tanh")
      .Cases({"erf", "math.erf"}, "T_erf")
      .Case("square", "T_square")
      .Case("reciprocal", "T_reciprocal")
      .Case("copy", "T_copy")
      .Default("");
}

/// Per loop of `op`, a spatial name `spatial<k>` or a reduce name
/// `reduce<k>` (k counting that kind; `reduce` alone when it is the only
/// reduction and `bareReduce`).
static SmallVector<std::string> numberedAxes(linalg::LinalgOp op,
                                             StringRef spatial,
                                             StringRef reduce,
                                             bool bareReduce = false) {
  SmallVector<utils::IteratorType> kinds = op.getIteratorTypesArray();
  unsigned reductions = llvm::count(kinds, utils::IteratorType::reduction);
  SmallVector<std::string> names;
  unsigned s = 0, r = 0;
  for (utils::IteratorType kind : kinds) {
    if (kind == utils::IteratorType::reduction)
      names.push_back(bareReduce && reductions == 1
                          ? reduce.str()
                          : (reduce + Twine(r++)).str());
    else
      names.push_back((spatial + Twine(s++)).str());
  }
  return names;
}

/// The body's one computing op (besides the yield and constants), if it
/// has exactly one.
static Operation *singleBodyOp(linalg::LinalgOp op) {
  Operation *found = nullptr;
  for (Operation &inner : op->getRegion(0).front()) {
    if (isa<linalg::YieldOp, arith::ConstantOp>(inner))
      continue;
    if (found)
      return nullptr;
    found = &inner;
  }
  return found;
}

LinalgBlockNames mlir::tir::getTVMNames(linalg::LinalgOp op) {
  std::string opName = op->getName().stripDialect().str();
  StringRef name = opName;
  // Matrix products (TVM's matmul: i0, i1 and reduce k).
  if (isa<linalg::MatmulOp, linalg::BatchMatmulOp, linalg::BatchReduceMatmulOp,
          linalg::ContractOp, linalg::MatvecOp, linalg::VecmatOp,
          linalg::BatchMatvecOp, linalg::BatchVecmatOp, linalg::DotOp,
          linalg::Mmt4DOp, linalg::BatchMmt4DOp, linalg::QuantizedMatmulOp,
          linalg::QuantizedBatchMatmulOp>(op.getOperation()))
    return {"matmul", numberedAxes(op, "i", "k", /*bareReduce=*/true)};
  // TOPI's conv2d in its two layouts, with its axis names.
  if (isa<linalg::Conv2DNchwFchwOp>(op.getOperation()))
    return {"conv2d_nchw", {"nn", "ff", "yy", "xx", "rc", "ry", "rx"}};
  if (isa<linalg::Conv2DNhwcHwcfOp>(op.getOperation()))
    return {"conv2d_nhwc", {"nn", "yy", "xx", "ff", "ry", "rx", "rc"}};
  if (name.starts_with("conv_") || name.starts_with("depthwise_conv_")) {
    // conv_2d_ngchw_fgchw -> conv2d_ngchw_fgchw (TOPI writes conv2d).
    std::string tvm = opName;
    for (StringRef d : {"1d", "2d", "3d"}) {
      size_t at = tvm.find(("_" + d).str());
      if (at != std::string::npos && tvm.compare(0, at, "conv") >= 0) {
        tvm.erase(at, 1);
        break;
      }
    }
    return {tvm, numberedAxes(op, "i", "r")};
  }
  // Pooling (TOPI's pool_max / pool_sum / pool_min, reduce axes rv0, ...).
  if (name.starts_with("pooling_")) {
    StringRef kind = name.contains("_max")   ? "max"
                     : name.contains("_min") ? "min"
                                             : "sum";
    return {("pool_" + kind).str(), numberedAxes(op, "ax", "rv")};
  }
  // A fill, or an op of no inputs yielding constants (bufferization's
  // padding): topi.full.
  auto yieldsConstants = [&]() {
    auto yield =
        cast<linalg::YieldOp>(op->getRegion(0).front().getTerminator());
    return op.getNumDpsInputs() == 0 &&
           llvm::all_of(yield.getValues(),
                        [](Value v) { return matchPattern(v, m_Constant()); });
  };
  if (isa<linalg::FillOp>(op.getOperation()) ||
      (op.getNumReductionLoops() == 0 && yieldsConstants()))
    return {"T_full", numberedAxes(op, "ax", "k")};
  if (isa<linalg::TransposeOp>(op.getOperation()))
    return {"T_transpose", numberedAxes(op, "ax", "k")};
  if (isa<linalg::BroadcastOp>(op.getOperation()))
    return {"T_broadcast_to", numberedAxes(op, "ax", "k")};
  // A reduction (topi.sum and its kin): "<input>_red", reduce axes k0, ...
  if (auto reduce = dyn_cast<linalg::ReduceOp>(op.getOperation())) {
    std::string input = getBufferName(reduce.getInputs()[0]);
    return {(input.empty() ? "A" : input) + "_red",
            numberedAxes(op, "ax", "k")};
  }
  // Element-wise operators, named or as a body of one op.
  if (StringRef tvm = elementwiseName(name); !tvm.empty())
    return {tvm.str(), numberedAxes(op, "ax", "k")};
  if (auto ew = dyn_cast<linalg::ElementwiseOp>(op.getOperation())) {
    std::string kind = stringifyElementwiseKind(ew.getKind()).str();
    if (StringRef tvm = elementwiseName(kind); !tvm.empty())
      return {tvm.str(), numberedAxes(op, "ax", "k")};
  }
  if (op.getNumReductionLoops() == 0)
    if (Operation *body = singleBodyOp(op)) {
      // ReLU, max(x, 0): topi.nn.relu's te.compute, unnamed.
      if (isa<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp>(body) &&
          llvm::any_of(body->getOperands(), [](Value v) {
            return matchPattern(v, m_AnyZeroFloat()) ||
                   matchPattern(v, m_Zero());
          }))
        return {"compute", numberedAxes(op, "i", "k")};
      if (StringRef tvm = elementwiseName(body->getName().getStringRef());
          !tvm.empty())
        return {tvm.str(), numberedAxes(op, "ax", "k")};
    }
  // Anything else: te.compute's defaults.
  return {"compute", numberedAxes(op, "i", "k")};
}
