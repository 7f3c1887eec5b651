//===- ScheduleAnalysis.cpp - the schedule's queries from Python ----------===//
//
// What the Python ScheduleState and the analyses of tvm.tir.schedule ask of
// a schedule without changing it: statements by position (TVM's StmtSRef),
// the buffers a block accesses, cached flags, block scopes, statement
// parents, the tensorize and auto-tensorize mappings, output blocks, whether
// decompose_padding applies, loop extents.
//
//===----------------------------------------------------------------------===//

#include "Nodes.h"
#include "Schedule.h"

#include "TensorIR/Dialect/TIR/Analysis/AccessRegions.h"
#include "TensorIR/Dialect/TIR/Analysis/BlockScope.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"
#include "TensorIR/Dialect/TIR/Schedule/Primitives.h"
#include "TensorIR/Dialect/TIR/Schedule/Query.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mlir;
using namespace tirpy;

//===----------------------------------------------------------------------===//
// Statements by position (TVM's StmtSRef: a block or loop of a function)
//===----------------------------------------------------------------------===//

/// A statement's position: its kind ("block" or "loop") and index among
/// the function's ops of that kind in pre-order (a block's index -1: the
/// function itself, TVM's root block), as the Python nodes number them.
using StmtPosition = std::pair<std::string, int>;

static StringRef opNameOf(const std::string &kind) {
  return kind == "block" ? tir::BlockOp::getOperationName()
                         : tir::ForOp::getOperationName();
}

/// The function `name` of the schedule's module.
static FunctionOpInterface functionNamed(ModuleOp module,
                                         const std::string &name) {
  for (auto func : module.getOps<FunctionOpInterface>())
    if (func.getName() == name)
      return func;
  throw py::index_error("no function named '" + name + "' in the module");
}

/// The op at `position` in `func`.
static Operation *opAt(FunctionOpInterface func, const StmtPosition &position) {
  const std::string &kind = position.first;
  int index = position.second;
  if (kind == "block" && index == -1)
    return func;
  StringRef name = opNameOf(kind);
  Operation *found = nullptr;
  int seen = 0;
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op->getName().getStringRef() != name)
      return WalkResult::advance();
    if (seen++ == index) {
      found = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!found)
    throw py::index_error("no " + kind + " at index " + std::to_string(index) +
                          " of function '" + func.getName().str() + "'");
  return found;
}

/// The position of `op` (a block, a loop or the function).
static StmtPosition positionOf(Operation *op) {
  if (isa<FunctionOpInterface>(op))
    return {"block", -1};
  auto func = op->getParentOfType<FunctionOpInterface>();
  int index = 0, found = -1;
  func->walk<WalkOrder::PreOrder>([&](Operation *other) {
    if (other == op) {
      found = index;
      return WalkResult::interrupt();
    }
    if (other->getName() == op->getName())
      ++index;
    return WalkResult::advance();
  });
  return {isa<tir::BlockOp>(op) ? "block" : "loop", found};
}

static tir::BlockOp singleBlock(const PyHandle &h) {
  std::string error;
  auto values = h.schedule->state->getPayload(h.value, error);
  if (failed(values) || values->size() != 1)
    return {};
  return dyn_cast_if_present<tir::BlockOp>(
      dyn_cast_if_present<Operation *>(values->front()));
}

/// The one block `h` holds, for `primitive` (ScheduleError otherwise).
static tir::BlockOp oneBlock(const PyHandle &h, const char *primitive) {
  tir::BlockOp block = singleBlock(h);
  if (!block)
    throw ScheduleError(std::string(primitive) + " takes one block");
  return block;
}

/// Function `name` of a tensor intrinsic's description module.
static func::FuncOp descriptionFunction(const PyModule &desc,
                                        const std::string &name) {
  auto func = dyn_cast_if_present<func::FuncOp>(
      SymbolTable::lookupSymbolIn(desc.get(), name));
  if (!func)
    throw py::value_error("no function named '" + name +
                          "' in the description's module");
  return func;
}

/// `describe(buffer)` of each buffer the one block `h` holds reads (or
/// writes), in order; nullopt when it does not hold one block.
template <typename Describe>
static auto describeAccessedBuffers(const PyHandle &h, bool reads,
                                    Describe describe)
    -> std::optional<std::vector<decltype(describe(Value()))>> {
  tir::BlockOp block = singleBlock(h);
  if (!block)
    return std::nullopt;
  SmallVector<Value> read, written;
  tir::getAccessedBuffers(block, read, written);
  std::vector<decltype(describe(Value()))> out;
  for (Value buffer : reads ? read : written)
    out.push_back(describe(buffer));
  return out;
}

static MemRefType memrefOf(Value buffer) {
  return cast<MemRefType>(buffer.getType());
}

/// A buffer's rank.
static int64_t rankOf(Value buffer) { return memrefOf(buffer).getRank(); }

/// A buffer's shape (-1: a runtime dimension).
static std::vector<int64_t> shapeOf(Value buffer) {
  std::vector<int64_t> shape;
  for (int64_t d : memrefOf(buffer).getShape())
    shape.push_back(ShapedType::isDynamic(d) ? -1 : d);
  return shape;
}

/// A buffer's element type in MLIR's spelling (f32, i8, ...).
static std::string elementTypeOf(Value buffer) {
  std::string text;
  llvm::raw_string_ostream os(text);
  memrefOf(buffer).getElementType().print(os);
  return text;
}

/// A buffer's name: an allocation's, a parameter's tir.name.
static std::string nameOf(Value buffer) { return tir::getBufferName(buffer); }

void tirpy::bindScheduleAnalysis(py::module_ &m) {
  auto handle = py::reinterpret_borrow<py::class_<PyHandle>>(m.attr("Handle"));
  handle
      // Where the one block or loop the handle holds is: (its function's
      // name, its index among the function's blocks -- or loops -- in
      // pre-order; -1 for the function, get_block("root")), which is where
      // the IR's Python nodes have it; None for anything else.
      .def_property_readonly(
          "position",
          [](const PyHandle &h) -> std::optional<std::pair<std::string, int>> {
            std::string error;
            auto values = h.schedule->state->getPayload(h.value, error);
            if (failed(values) || values->size() != 1)
              return std::nullopt;
            auto *op = dyn_cast_if_present<Operation *>(values->front());
            if (!op || !isa<tir::BlockOp, tir::ForOp, FunctionOpInterface>(op))
              return std::nullopt;
            auto func = isa<FunctionOpInterface>(op)
                            ? cast<FunctionOpInterface>(op)
                            : op->getParentOfType<FunctionOpInterface>();
            if (!func)
              return std::nullopt;
            return std::make_pair(func.getName().str(), positionOf(op).second);
          })
      // The names of the buffers the one block the handle holds reads or
      // writes, in the order of its reads / writes (TVM's buffer_index): an
      // allocation's name, a parameter's tir.name.
      .def_property_readonly("read_buffer_names",
                             [](const PyHandle &h) {
                               return describeAccessedBuffers(h, true, nameOf);
                             })
      .def_property_readonly("read_buffer_ranks",
                             [](const PyHandle &h) {
                               return describeAccessedBuffers(h, true, rankOf);
                             })
      .def_property_readonly("write_buffer_ranks",
                             [](const PyHandle &h) {
                               return describeAccessedBuffers(h, false, rankOf);
                             })
      .def_property_readonly("read_buffer_shapes",
                             [](const PyHandle &h) {
                               return describeAccessedBuffers(h, true, shapeOf);
                             })
      .def_property_readonly("write_buffer_shapes",
                             [](const PyHandle &h) {
                               return describeAccessedBuffers(h, false,
                                                              shapeOf);
                             })
      .def_property_readonly("read_buffer_element_types",
                             [](const PyHandle &h) {
                               return describeAccessedBuffers(h, true,
                                                              elementTypeOf);
                             })
      .def_property_readonly("write_buffer_element_types",
                             [](const PyHandle &h) {
                               return describeAccessedBuffers(h, false,
                                                              elementTypeOf);
                             })
      // The number of iteration variables of the one block the handle
      // holds.
      .def_property_readonly("num_iter_vars",
                             [](const PyHandle &h) -> std::optional<unsigned> {
                               tir::BlockOp block = singleBlock(h);
                               if (!block)
                                 return std::nullopt;
                               return block.getNumIterVars();
                             })
      .def_property_readonly("write_buffer_names", [](const PyHandle &h) {
        return describeAccessedBuffers(h, false, nameOf);
      });

  using S = PySchedule;
  auto schedule = py::reinterpret_borrow<py::class_<S, std::shared_ptr<S>>>(
      m.attr("Schedule"));
  schedule
      .def(
          "block_flags",
          // TVM's cached flags of the block at `index` of function
          // `func_name` (-1: the root): (affine_binding, region_cover,
          // stage_pipeline).
          [](S &s, const std::string &funcName, int index) {
            Operation *op = opAt(functionNamed(s.state->getPayload(), funcName),
                                 {"block", index});
            tir::BlockFlags flags = tir::getBlockFlags(op);
            return std::make_tuple(flags.affineBinding, flags.regionCover,
                                   flags.stagePipeline);
          },
          py::arg("func_name"), py::arg("index"))
      .def(
          "block_dependences",
          // TVM's BlockScope of the block at `index` (-1: the root): the
          // dependences among its child blocks, as (src, dst, kind) with
          // blocks by index and kind 0 RAW, 1 WAW, 2 WAR, in program order of
          // the later block, then of the earlier.
          [](S &s, const std::string &funcName, int index) {
            Operation *root =
                opAt(functionNamed(s.state->getPayload(), funcName),
                     {"block", index});
            tir::BlockDependences scope(tir::getScopeBlocks(root));
            std::vector<std::tuple<int, int, int>> deps;
            for (tir::BlockOp dst : scope.getBlocks())
              for (const tir::Dependence &d : scope.getDependences(dst))
                deps.emplace_back(positionOf(d.src).second,
                                  positionOf(d.dst).second,
                                  static_cast<int>(d.kind));
            return deps;
          },
          py::arg("func_name"), py::arg("index"))
      .def(
          "stmt_parent",
          // The position of the block or loop enclosing the statement at
          // `position` (TVM's StmtSRef.parent); None for the root.
          [](S &s, const std::string &funcName,
             const StmtPosition &position) -> std::optional<StmtPosition> {
            Operation *op =
                opAt(functionNamed(s.state->getPayload(), funcName), position);
            if (isa<FunctionOpInterface>(op))
              return std::nullopt;
            for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
              if (isa<tir::BlockOp, tir::ForOp, FunctionOpInterface>(p))
                return positionOf(p);
            return std::nullopt;
          },
          py::arg("func_name"), py::arg("position"))
      .def(
          "tensorize_loop_mapping",
          // TVM's get_tensorize_loop_mapping of the block `block` holds
          // against function `desc_name` of `desc`: None, or (pairs of the
          // position of a loop of the block's function and the index of the
          // description loop it stands for (outermost first), the paddings
          // per iteration variable or None).
          [](S &s, const PyHandle &block, const PyModule &desc,
             const std::string &descName, bool allowPadding) -> py::object {
            tir::BlockOp blockOp =
                oneBlock(block, "get_tensorize_loop_mapping");
            func::FuncOp descFunc = descriptionFunction(desc, descName);
            tir::Refusal why;
            FailureOr<tir::TensorizeLoopMapping> mapping =
                tir::getTensorizeLoopMapping(blockOp, descFunc, allowPadding,
                                             why);
            if (failed(mapping))
              return py::none();
            std::vector<std::pair<int, unsigned>> pairs;
            for (auto [loop, index] : mapping->loopMap)
              pairs.emplace_back(positionOf(loop).second, index);
            py::object paddings = py::none();
            if (mapping->blockIterPaddings)
              paddings = py::cast(
                  std::vector<int64_t>(mapping->blockIterPaddings->begin(),
                                       mapping->blockIterPaddings->end()));
            return py::make_tuple(pairs, paddings);
          },
          py::arg("block"), py::arg("desc"), py::arg("desc_name"),
          py::arg("allow_padding"))
      .def(
          "auto_tensorize_mapping",
          // TVM's get_auto_tensorize_mapping_info of the block `block`
          // holds against function `desc_name` of `desc`: None, or (the
          // mapping's final indices over `vars` (one node variable per
          // iteration variable of the block), pairs of a buffer's name in
          // the block and the position of the description parameter it
          // stands for).
          [](S &s, const PyHandle &block, const PyModule &desc,
             const std::string &descName, const std::vector<py::object> &vars,
             py::object classes) -> py::object {
            tir::BlockOp blockOp =
                oneBlock(block, "get_auto_tensorize_mapping_info");
            func::FuncOp descFunc = descriptionFunction(desc, descName);
            if (vars.size() != blockOp.getNumIterVars())
              throw py::value_error("one variable per iteration variable");
            tir::Refusal why;
            FailureOr<tir::AutoTensorizeMapping> mapping =
                tir::getAutoTensorizeMapping(blockOp, descFunc, why);
            if (failed(mapping))
              return py::none();
            nodes::NodeBuilder builder(std::move(classes));
            py::list finals;
            for (AffineExpr e : mapping->mapping.getResults())
              finals.append(builder.indexExpr(e, vars));
            py::list buffers;
            for (auto [lhs, rhs] : mapping->bufferMap) {
              // A description buffer that is not a parameter (allocated
              // inside it) has no place in TVM's lhs_buffer_map.
              auto param = dyn_cast<BlockArgument>(rhs);
              if (param &&
                  isa<FunctionOpInterface>(param.getOwner()->getParentOp()))
                buffers.append(py::make_tuple(tir::getBufferName(lhs),
                                              param.getArgNumber()));
            }
            return py::make_tuple(finals, buffers);
          },
          py::arg("block"), py::arg("desc"), py::arg("desc_name"),
          py::arg("vars"), py::arg("classes"))
      .def(
          "is_output_block",
          // TVM's is_output_block of the one block `block` holds.
          [](S &s, const PyHandle &block) {
            return tir::isOutputBlock(oneBlock(block, "is_output_block"));
          },
          py::arg("block"))
      .def("can_decompose_padding",
           // TVM's can_decompose_padding: whether decompose_padding would
           // apply to the block at the loop (nothing is changed or traced).
           [](S &s, const PyHandle &block, const PyHandle &loop) {
             auto single = [&](const PyHandle &h) -> Operation * {
               ArrayRef<transform::MappedValue> values = s.payload(h);
               return values.size() == 1
                          ? dyn_cast_if_present<Operation *>(values[0])
                          : nullptr;
             };
             auto b = dyn_cast_if_present<tir::BlockOp>(single(block));
             auto l = dyn_cast_if_present<tir::ForOp>(single(loop));
             if (!b || !l)
               throw ScheduleError(
                   "can_decompose_padding takes a block and a loop");
             return tir::canDecomposePadding(b, l);
           })
      .def("loop_extent",
           // The extent of a loop that starts at 0 with a constant bound;
           // None otherwise.
           [](S &s, const PyHandle &h) -> std::optional<int64_t> {
             ArrayRef<transform::MappedValue> values = s.payload(h);
             auto *op = values.size() == 1
                            ? dyn_cast_if_present<Operation *>(values[0])
                            : nullptr;
             auto loop = dyn_cast_if_present<tir::ForOp>(op);
             if (!loop)
               throw ScheduleError("expected a loop");
             if (loop.getConstantLowerBound() != 0)
               return std::nullopt;
             return loop.getConstantUpperBound();
           });
}
