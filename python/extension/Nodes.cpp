//===- Nodes.cpp - tir functions as tvm.tir nodes ------------------------===//
//
// Module.nodes(name, classes): a tir function as TVM's IR nodes (its
// parameters, buffer_map and body), built straight from the ops: loops are
// For, blocks BlockRealize + Block (iteration variables, T.where, regions,
// init, alloc_buffers, match_buffers, annotations), stores BufferStore,
// values expressions. The mapping of values onto TVM's expressions (which
// values are written inline, dtypes, intrinsic names, operators) is the
// TVMScript printer's (TensorIR/Target/TVMScript.h), so nodes and the
// printed script agree; a value that is not written inline is a LetStmt
// over the statements after it, as the printer names it.
//
// `classes` holds the node classes (Var, Add, For, Block, Buffer, Range,
// ...) by TVM's names: the package passes its own, so this file depends on
// no Python module path. The builder is declared in Nodes.h; its
// expressions are in NodesValues.cpp.
//
//===----------------------------------------------------------------------===//

#include "Nodes.h"

#include "TensorIR/Dialect/TIR/Schedule/Analysis.h"

#include "TensorIR/Dialect/TIR/IR/ShapeVars.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIRIndexExpr.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Target/TVMScript.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IntegerSet.h"

#include <pybind11/stl.h>

// Nodes.h brings pybind11 (py), mlir and mlir::tir into tirpy::nodes.
using namespace tirpy;
using namespace tirpy::nodes;
using tvmscript::dtypeName;

//===----------------------------------------------------------------------===//
// Buffers and regions
//===----------------------------------------------------------------------===//

py::object NodeBuilder::buffer(Value memref, StringRef name,
                               ArrayRef<py::object> shape,
                               StringAttr unsignedDtype) {
  auto type = cast<MemRefType>(memref.getType());
  std::string dtype =
      unsignedDtype ? unsignedDtype.str() : dtypeName(type.getElementType());
  auto scope = dyn_cast_or_null<StringAttr>(type.getMemorySpace());
  py::list dims;
  for (const py::object &d : shape)
    dims.append(d);
  py::object buf = cls("Buffer")(name.str(), dims, dtype,
                                 scope ? scope.str() : std::string("global"));
  buffers[memref] = buf;
  return buf;
}

py::object NodeBuilder::region(Value buffer, AffineMap map,
                               ArrayRef<py::object> inputs) {
  RegionExprs region = splitRegionMap(map);
  py::list ranges;
  for (auto [start, extent] : llvm::zip(region.starts, region.extents))
    ranges.append(cls("Range").attr("from_min_extent")(index(start, inputs),
                                                       index(extent, inputs)));
  auto it = buffers.find(buffer);
  if (it == buffers.end())
    throw NoNodeForm(buffer.getParentBlock()->getParentOp(),
                     "a region of a buffer with no buffer node");
  return cls("BufferRegion")(it->second, ranges);
}

py::list NodeBuilder::regions(OperandRange buffers,
                              std::optional<ArrayAttr> maps,
                              ArrayRef<py::object> inputs) {
  py::list out;
  if (maps)
    for (auto [buffer, attr] : llvm::zip(buffers, *maps))
      out.append(region(buffer, cast<AffineMapAttr>(attr).getValue(), inputs));
  return out;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

py::object NodeBuilder::body(Block &block, Block::iterator begin,
                             py::list *allocs, py::list *matches) {
  py::list stmts;
  for (auto it = begin; it != block.end(); ++it) {
    Operation &op = *it;
    if (op.hasTrait<OpTrait::IsTerminator>())
      continue;
    // A pure value that is not written inline gets a name: a LetStmt over
    // the statements after it.
    if (op.getNumResults() == 1 &&
        (op.getNumRegions() == 0 || isa<scf::IfOp>(op)) &&
        !bound_.count(op.getResult(0)) &&
        !isa<AllocBufferOp, MatchBufferOp, memref::ExtractStridedMetadataOp>(
            op)) {
      Value v = op.getResult(0);
      if (tvmscript::isWrittenInline(v))
        continue;
      py::object value = opExpr(&op, v);
      py::object var = cls("Var")("v", value.attr("dtype"));
      bound_[v] = var;
      py::object rest = body(block, std::next(it), allocs, matches);
      py::object let = cls("LetStmt")(var, value, rest);
      let.attr("span") = span(op.getLoc());
      stmts.append(let);
      break;
    }
    py::object s = statement(op, allocs, matches);
    if (!s.is_none()) {
      s.attr("span") = span(op.getLoc());
      stmts.append(s);
    }
  }
  if (stmts.empty())
    return cls("Evaluate")(i32(0));
  return cls("stmt_seq")(*stmts);
}

py::object NodeBuilder::statement(Operation &op, py::list *allocs,
                                  py::list *matches) {
  if (auto loop = dyn_cast<ForOp>(op))
    return forLoop(loop);
  if (auto block = dyn_cast<BlockOp>(op))
    return tirBlock(block);
  if (auto store = dyn_cast<StoreOp>(op)) {
    auto it = buffers.find(store.getBuffer());
    if (it == buffers.end())
      throw NoNodeForm(&op, "a store to a buffer with no buffer node");
    return cls("BufferStore")(it->second, expr(store.getValue()),
                              indices(store.getMap(), store.getIndices()));
  }
  if (auto alloc = dyn_cast<AllocBufferOp>(op)) {
    if (!allocs)
      throw NoNodeForm(&op, "a buffer allocated outside a block");
    MemRefType type = alloc.getBuffer().getType();
    SmallVector<py::object> shape;
    unsigned dyn = 0;
    for (int64_t d : type.getShape())
      shape.push_back(ShapedType::isDynamic(d)
                          ? expr(alloc.getDynamicSizes()[dyn++])
                          : i32(d));
    py::object buf =
        buffer(alloc.getBuffer(), alloc.getBufferName().value_or("buffer"),
               shape, getUnsignedDtype(alloc.getBuffer()));
    if (auto seps = alloc.getAxisSeparators()) {
      py::list list;
      for (int64_t x : *seps)
        list.append(x);
      buf.attr("axis_separators") = list;
    }
    allocs->append(buf);
    return py::none();
  }
  if (auto match = dyn_cast<MatchBufferOp>(op)) {
    if (!matches)
      throw NoNodeForm(&op, "a buffer matched outside a block");
    SmallVector<py::object> inputs;
    for (Value v : match.getIndices())
      inputs.push_back(expr(v));
    py::object source =
        region(match.getSource(), match.getSourceRegion(), inputs);
    auto type = cast<MemRefType>(match.getResult().getType());
    SmallVector<py::object> shape;
    for (int64_t d : type.getShape()) {
      if (ShapedType::isDynamic(d))
        throw NoNodeForm(&op, "a matched region of a size known only at run "
                              "time");
      shape.push_back(i32(d));
    }
    std::string name = source.attr("buffer").attr("name").cast<std::string>();
    py::object buf = buffer(match.getResult(), name, shape, StringAttr());
    buf.attr("offset_factor") = 1;
    // TVM's view fields; a use reads them from the layout (FromNodes.cpp).
    buf.attr("elem_offset") = cls("Var")(name + "_elem_offset", "int32");
    py::list strides;
    for (size_t k = 0; k < shape.size(); ++k)
      strides.append(cls("Var")(name + "_s" + std::to_string(k), "int32"));
    buf.attr("strides") = strides;
    if (auto seps = match.getAxisSeparators()) {
      py::list list;
      for (int64_t x : *seps)
        list.append(x);
      buf.attr("axis_separators") = list;
    }
    matches->append(cls("MatchBufferRegion")(buf, source));
    return py::none();
  }
  if (isa<memref::ExtractStridedMetadataOp, InitOp>(op))
    return py::none(); // Read as buffer fields; printed with its block.
  if (op.getNumResults() == 1 && bound_.count(op.getResult(0)))
    return py::none(); // A shape variable's read.
  if (auto c = dyn_cast<CallOp>(op); c && c->getNumResults() == 0)
    return cls("Evaluate")(call(c));
  if (auto ifOp = dyn_cast<scf::IfOp>(op); ifOp && ifOp->getNumResults() == 0) {
    py::object cond = expr(ifOp.getCondition());
    py::object then =
        body(ifOp.getThenRegion().front(), ifOp.getThenRegion().front().begin(),
             nullptr, nullptr);
    py::object other = py::none();
    if (!ifOp.getElseRegion().empty() &&
        !llvm::hasSingleElement(ifOp.getElseRegion().front()))
      other = body(ifOp.getElseRegion().front(),
                   ifOp.getElseRegion().front().begin(), nullptr, nullptr);
    return cls("IfThenElse")(cond, then, other);
  }
  throw NoNodeForm(&op, "no TVM statement does this");
}

py::object NodeBuilder::forLoop(ForOp loop) {
  py::object lo = bound(loop.getMixedLowerBound());
  py::object hi = bound(loop.getMixedUpperBound());
  py::object var = cls("Var")(loop.getVarName().value_or("i").str(), "int32");
  bound_[loop.getInductionVar()] = var;
  py::object inner =
      body(*loop.getBody(), loop.getBody()->begin(), nullptr, nullptr);
  std::optional<int64_t> start = loop.getConstantLowerBound();
  py::object extent = start && *start == 0 ? hi : cls("simplify_sub")(hi, lo);
  // tvm.tir.ForKind's member for each loop kind.
  static const std::pair<ForKind, const char *> kinds[] = {
      {ForKind::Serial, "SERIAL"},
      {ForKind::Parallel, "PARALLEL"},
      {ForKind::Vectorized, "VECTORIZED"},
      {ForKind::Unrolled, "UNROLLED"},
      {ForKind::ThreadBinding, "THREAD_BINDING"}};
  py::object kind;
  for (auto [k, member] : kinds)
    if (loop.getKind() == k)
      kind = cls("ForKind").attr(member);
  py::object thread = loop.getThread()
                          ? py::object(py::str(loop.getThread()->str()))
                          : py::object(py::none());
  return cls("For")(var, lo, extent, kind, inner, thread,
                    annotations(loop.getAnnotationsAttr(), loop));
}

py::object NodeBuilder::tirBlock(BlockOp block) {
  SmallVector<py::object> inputs;
  for (Value v : block.getBindingValues())
    inputs.push_back(expr(v));
  SmallVector<AffineExpr> bindings = block.getBindingExprs();
  static const char *kinds[] = {"DataPar", "CommReduce", "Ordered", "Opaque"};
  py::list iterVars, values;
  for (unsigned i = 0; i < block.getNumIterVars(); ++i) {
    StringRef name =
        block.getVarNames()
            ? cast<StringAttr>((*block.getVarNames())[i]).getValue()
            : StringRef("v");
    py::object var = cls("Var")(name.str(), "int32");
    py::object lo = bound(block.getMixedDomainLower(i));
    py::object hi = bound(block.getMixedDomainUpper(i));
    py::object dom = cls("Range")(lo, hi);
    int kind = static_cast<int>(block.getIterType(i));
    iterVars.append(cls("IterVar")(dom, var, cls("IterVar").attr(kinds[kind])));
    values.append(index(bindings[i], inputs));
    bound_[block.getIterVar(i)] = var;
  }
  py::object predicate = boolean(true);
  if (block.getPredicate()) {
    // A disjunction of conjunctions of `e >= 0` (or `e == 0`).
    py::object disjunction;
    for (IntegerSet set : block.getPredicateSets()) {
      py::object conjunction;
      for (auto [c, e] : llvm::enumerate(getConstraintsOverInputs(set))) {
        py::object term =
            cls(set.isEq(c) ? "EQ" : "GE")(index(e, inputs), i32(0));
        conjunction = conjunction ? cls("And")(conjunction, term) : term;
      }
      if (!conjunction)
        conjunction = boolean(true);
      disjunction =
          disjunction ? cls("Or")(disjunction, conjunction) : conjunction;
    }
    predicate = disjunction;
  }
  if (Value condition = block.getCondition())
    predicate = expr(condition);
  SmallVector<py::object> regionInputs;
  for (Value v : block.getRegionInputs())
    regionInputs.push_back(expr(v));
  py::list allocs, matches;
  // Buffers the body allocates and matches are known before the regions
  // and the init name them: they are read from the body first.
  py::object inner =
      body(*block.getBody(), block.getBody()->begin(), &allocs, &matches);
  py::list reads =
      regions(block.getReadBuffers(), block.getReadRegions(), regionInputs);
  py::list writes =
      regions(block.getWriteBuffers(), block.getWriteRegions(), regionInputs);
  py::object init = py::none();
  if (InitOp initOp = block.getInitOp())
    init = body(*initOp.getBody(), initOp.getBody()->begin(), nullptr, nullptr);
  py::object node = cls("Block")(
      iterVars, reads, writes, block.getBlockName().str(), inner, init, allocs,
      matches, annotations(block.getAnnotationsAttr(), block));
  // What the block was read with, for the package to tell stale regions.
  node.attr("_read_with") = py::make_tuple(
      node.attr("body"), node.attr("init"), py::list(node.attr("reads")),
      py::list(node.attr("writes")), py::list(node.attr("match_buffers")));
  node.attr("span") = span(block.getLoc());
  return cls("BlockRealize")(values, predicate, node);
}

py::object NodeBuilder::span(Location loc) {
  FileLineColLoc place;
  loc->walk([&](Location inner) {
    place = dyn_cast<FileLineColLoc>(inner);
    return place ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (!place || place.getLine() == 0)
    return py::none();
  return cls("Span")(place.getFilename().str(), place.getLine(),
                     place.getLine(), place.getColumn(), place.getColumn());
}

py::tuple NodeBuilder::function(func::FuncOp func) {
  if (func.isExternal())
    throw NoNodeForm(func, "a declaration has no body");
  Block &entry = func.getBody().front();
  // Shape variables: the names tir.dim_vars gives dynamic dimensions; a
  // scalar parameter of that name is the variable itself.
  llvm::StringMap<py::object> dimVars;
  py::list params, bufferMap;
  SmallVector<Value> scalars;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    Value arg = func.getArgument(i);
    if (!arg.getType().isIndex())
      continue;
    auto name = func.getArgAttrOfType<StringAttr>(i, TIRDialect::kNameAttrName);
    py::object var =
        cls("Var")(name ? name.str() : "arg" + std::to_string(i), "int32");
    bound_[arg] = var;
    scalars.push_back(arg);
    if (name)
      dimVars[name.getValue()] = var;
  }
  auto variable = [&](StringRef name) {
    auto it = dimVars.find(name);
    if (it != dimVars.end())
      return it->second;
    py::object var = cls("SizeVar")(name.str(), "int32");
    dimVars[name] = var;
    return var;
  };
  // A dimension named by an affine form of named variables ("32 * n") is
  // that expression of them; a variable's name is the variable.
  auto shapeVar = [&](StringRef name) -> py::object {
    std::optional<AffineSize> form = parseAffineSize(name);
    if (!form || form->isVariable())
      return variable(name);
    py::object sum = py::none();
    for (auto &[var, coeff] : form->terms) {
      py::object term = variable(var);
      if (coeff != 1)
        term = cls("Mul")(term, i32(coeff));
      sum = sum.is_none() ? term : cls("Add")(sum, term);
    }
    if (form->constant > 0)
      sum = cls("Add")(sum, i32(form->constant));
    else if (form->constant < 0)
      sum = cls("Sub")(sum, i32(-form->constant));
    return sum;
  };
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    Value arg = func.getArgument(i);
    auto nameAttr =
        func.getArgAttrOfType<StringAttr>(i, TIRDialect::kNameAttrName);
    std::string name = nameAttr ? nameAttr.str() : "arg" + std::to_string(i);
    if (arg.getType().isIndex()) {
      params.append(bound_[arg]);
      continue;
    }
    auto type = dyn_cast<MemRefType>(arg.getType());
    // A row-major buffer, or one with an offset known at run time
    // (T.match_buffer of a parameter with an offset_factor), as the
    // printer takes them.
    bool rowMajorWithOffset = type && tvmscript::hasDynamicOffsetLayout(type);
    if (!type || !(type.getLayout().isIdentity() || rowMajorWithOffset))
      throw NoNodeForm(func, "parameter " + name +
                                 " is not a row-major buffer (with or "
                                 "without an offset_factor) or an index");
    SmallVector<py::object> shape;
    bool dynamic = false;
    SmallVector<StringRef> vars = getDimVarNames(func, i);
    for (auto [k, d] : llvm::enumerate(type.getShape())) {
      if (!ShapedType::isDynamic(d)) {
        shape.push_back(i32(d));
        continue;
      }
      dynamic = true;
      if (k < vars.size() && !vars[k].empty())
        shape.push_back(shapeVar(vars[k]));
      else if (k < vars.size())
        shape.push_back(cls("SizeVar")("v", "int32"));
      else if (scalars.size() == 1)
        shape.push_back(bound_[scalars.front()]);
      else
        throw NoNodeForm(func, "buffer " + name +
                                   " has a dynamic dimension and the "
                                   "function has no single scalar parameter "
                                   "to name it");
    }
    py::object buf = buffer(arg, name, shape, getUnsignedDtype(arg));
    if (rowMajorWithOffset) {
      py::list strides;
      for (int64_t stride :
           cast<StridedLayoutAttr>(type.getLayout()).getStrides())
        strides.append(i32(stride));
      buf.attr("strides") = strides;
      buf.attr("elem_offset") = cls("Var")(name + "_elem_offset", "int32");
      buf.attr("offset_factor") = 1;
    }
    if (auto seps = func.getArgAttrOfType<DenseI64ArrayAttr>(
            i, TIRDialect::kAxisSeparatorsAttrName)) {
      py::list list;
      for (int64_t x : seps.asArrayRef())
        list.append(x);
      buf.attr("axis_separators") = list;
    }
    // A buffer with a dynamic dimension is a handle matched to it
    // (T.match_buffer), named in lower case as the printer names it.
    py::object handle =
        cls("Var")(dynamic ? StringRef(name).lower() : name, "handle");
    params.append(handle);
    bufferMap.append(py::make_tuple(handle, buf));
  }
  // The body reads a shape variable as memref.dim of a dimension it names.
  for (auto dim : entry.getOps<memref::DimOp>())
    if (StringRef var = getShapeVarRead(dim); !var.empty())
      bound_[dim.getResult()] = shapeVar(var);
  py::list allocs, matches;
  py::object inner = body(entry, entry.begin(), &allocs, &matches);
  if (!matches.empty())
    throw NoNodeForm(func, "a buffer matched outside a block");
  py::object root = cls("Block")(py::list(), py::list(), py::list(), "root",
                                 inner, py::none(), allocs);
  return py::make_tuple(params, bufferMap,
                        cls("BlockRealize")(py::list(), boolean(true), root));
}

py::list NodeBuilder::signature(func::FuncOp func) {
  py::list out;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    Value arg = func.getArgument(i);
    auto nameAttr =
        func.getArgAttrOfType<StringAttr>(i, TIRDialect::kNameAttrName);
    std::string name = nameAttr ? nameAttr.str() : "arg" + std::to_string(i);
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type) {
      std::string dtype = dtypeName(arg.getType());
      out.append(py::make_tuple(
          cls("Var")(name, dtype.empty() ? "handle" : dtype), py::none()));
      continue;
    }
    py::list shape;
    for (int64_t d : type.getShape())
      shape.append(ShapedType::isDynamic(d) ? py::object(py::none())
                                            : py::object(py::int_(d)));
    StringAttr unsignedDtype = getUnsignedDtype(arg);
    auto scope = dyn_cast_or_null<StringAttr>(type.getMemorySpace());
    out.append(py::make_tuple(
        cls("Var")(name, "handle"),
        cls("Buffer")(name, shape,
                      unsignedDtype ? unsignedDtype.str()
                                    : dtypeName(type.getElementType()),
                      scope ? scope.str() : std::string("global"))));
  }
  return out;
}

void tirpy::bindNodes(py::module_ &m) {
  m.def(
      "function_signature",
      [](py::object module, const std::string &name, py::object classes) {
        auto func = moduleOf(module).lookupSymbol<func::FuncOp>(name);
        if (!func)
          throw py::value_error("no function '" + name + "' in the module");
        return NodeBuilder(std::move(classes)).signature(func);
      },
      py::arg("module"), py::arg("name"), py::arg("classes"),
      "[(Var, Buffer or None)] of function `name`'s parameters, from their "
      "types.");
  m.def(
      "simplify_index",
      [](py::object expr, py::object classes) {
        return NodeBuilder(std::move(classes)).simplify(expr);
      },
      py::arg("expr"), py::arg("classes"),
      "An integer expression of tvm.tir nodes simplified by tir's index "
      "arithmetic (the classes `classes` holds build the result).");
  m.def(
      "suggest_index_map",
      // TVM's suggest_index_map: None, or (forward final indices over
      // `new_vars`, inverse final indices over `inverse_vars`) where
      // `new_vars` has one variable per buffer dimension and `inverse_vars`
      // enough for the layout (their count is the forward's length).
      [](const std::vector<int64_t> &shape, const std::vector<int64_t> &strides,
         const std::vector<py::object> &indices,
         const std::vector<py::object> &loopVars,
         const std::vector<int64_t> &loopExtents, py::object makeVars,
         py::object classes) -> py::object {
        NodeBuilder builder(std::move(classes));
        SmallVector<py::object> leaves(loopVars.begin(), loopVars.end());
        SmallVector<AffineExpr> exprs;
        for (const py::object &index : indices) {
          AffineExpr e = builder.indexExprOf(index, leaves);
          if (!e || leaves.size() != loopVars.size())
            return py::none(); // not an index expression of the loops
          exprs.push_back(e);
        }
        FailureOr<tir::SuggestedLayout> layout =
            tir::suggestIndexMap(shape, strides, exprs, loopExtents);
        if (failed(layout))
          return py::none();
        auto nodesOf = [&](AffineMap map) {
          std::vector<py::object> vars =
              makeVars(map.getNumDims()).cast<std::vector<py::object>>();
          py::list finals;
          for (AffineExpr e : map.getResults())
            finals.append(builder.indexExpr(e, vars));
          return py::make_tuple(vars, finals);
        };
        return py::make_tuple(nodesOf(layout->forward),
                              nodesOf(layout->inverse));
      },
      py::arg("shape"), py::arg("strides"), py::arg("indices"),
      py::arg("loop_vars"), py::arg("loop_extents"), py::arg("make_vars"),
      py::arg("classes"));
  m.def(
      "function_nodes",
      [](py::object module, const std::string &name, py::object classes) {
        ModuleOp mod = moduleOf(module);
        auto func = mod.lookupSymbol<func::FuncOp>(name);
        if (!func)
          throw py::value_error("no function '" + name + "' in the module");
        try {
          return NodeBuilder(std::move(classes)).function(func);
        } catch (const NoNodeForm &e) {
          throw py::value_error(e.what());
        }
      },
      py::arg("module"), py::arg("name"), py::arg("classes"),
      "(params, [(param, Buffer)], body) of function `name` as tvm.tir "
      "nodes, made of the classes `classes` holds by TVM's names.");
}
