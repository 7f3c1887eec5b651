//===- FromNodes.cpp - tvm.tir nodes built into tir
//------------------------===//
//
// function_from_nodes(name, params, buffer_map, body, private): a module
// holding one tir function built with MLIR's builders from TVM's IR nodes
// (what the TVMScript parser, te.create_prim_func, PrimFunc(params, body,
// ...) and with_body give), checked by the verifier. It is the inverse of
// Nodes.cpp, and the one place that decides how nodes become ops:
//
// - an integer expression over loop, block and scalar variables (and
//   constants) is an index expression, written into the op that uses it
//   (a load's indices, a binding, a region, a T.where); elsewhere it is
//   computed in `index` with arith ops (floor modulo as a - a // b * b);
// - a value of a buffer (a load, a cast) met with an index variable turns
//   the variable into the buffer's integer type; a float met with an
//   integer turns the integer into the float;
// - a store converts its value to the buffer's element type.
//
// fragment_from_nodes builds a statement or expression on its own, for
// printing and comparing nodes. This file holds the statements and
// buffers; FromNodesFunctions.cpp the functions, fragments and bindings,
// FromNodesValues.cpp the values.
//
// Variables and buffers are matched by identity, as nodes share them.
//
//===----------------------------------------------------------------------===//

#include "FromNodes.h"

#include "TensorIR/Dialect/TIR/Arith/Simplify.h"
#include "TensorIR/Dialect/TIR/IR/TIRDialect.h"
#include "TensorIR/Dialect/TIR/IR/TIROps.h"
#include "TensorIR/Dialect/TIR/IR/TIRUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <pybind11/stl.h>

using namespace tirpy;
using namespace tirpy::fromnodes;

namespace {
/// The name of a node's class, and whether it is a Var.
struct NodeClass {
  std::string name;
  bool isVar = false;
};
} // namespace

static const NodeClass &nodeClass(py::handle node) {
  static llvm::DenseMap<PyObject *, NodeClass> classes;
  PyObject *type = reinterpret_cast<PyObject *>(Py_TYPE(node.ptr()));
  auto it = classes.find(type);
  if (it != classes.end())
    return it->second;
  // The class stays alive while it is cached (one reference, never
  // dropped), so that its address is not reused by another class.
  Py_INCREF(type);
  NodeClass info;
  py::handle cls(type);
  info.name = py::str(cls.attr("__name__")).cast<std::string>();
  for (py::handle base : cls.attr("__mro__"))
    info.isVar |= py::str(base.attr("__name__")).cast<std::string>() == "Var";
  return classes.try_emplace(type, std::move(info)).first->second;
}

const std::string &tirpy::fromnodes::typeName(py::handle node) {
  return nodeClass(node).name;
}

bool tirpy::fromnodes::isa_(py::handle node, const char *name) {
  assert(StringRef(name) == "Var" && "only Var has subclasses");
  return nodeClass(node).isVar;
}

int64_t tirpy::fromnodes::intOf(py::handle value) {
  if (py::hasattr(value, "value") && !py::isinstance<py::int_>(value))
    value = value.attr("value");
  unsigned long long bits = PyLong_AsUnsignedLongLongMask(value.ptr());
  if (bits == static_cast<unsigned long long>(-1) && PyErr_Occurred())
    throw py::error_already_set();
  return static_cast<int64_t>(bits);
}

std::string tirpy::fromnodes::dtypeOf(py::handle node) {
  return py::str(node.attr("dtype")).cast<std::string>();
}

void FunctionBuilder::fail(const std::string &why) {
  auto at = dyn_cast<FileLineColLoc>(loc);
  if (!at || at.getLine() == 0)
    throw BadNodes(why);
  throw BadNodes(tir::describeLocation(loc) + ": error: " + why);
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

MemRefType FunctionBuilder::memrefType(py::handle buffer, bool isParam,
                                       SmallVectorImpl<Value> *dynSizes) {
  std::string name = py::str(buffer.attr("name")).cast<std::string>();
  SmallVector<int64_t> shape;
  for (py::handle d : buffer.attr("shape")) {
    if (typeName(d) == "IntImm") {
      shape.push_back(intOf(d.attr("value")));
      continue;
    }
    shape.push_back(ShapedType::kDynamic);
    if (dynSizes)
      dynSizes->push_back(indexValue(d));
  }
  std::string scope = py::str(buffer.attr("scope")()).cast<std::string>();
  Attribute space =
      scope.empty() || scope == "global" ? Attribute() : b.getStringAttr(scope);
  Type elem = scalarType(py::str(buffer.attr("dtype")));
  // The layout: tir's parameters and allocations are row-major (given
  // strides must be those), and a parameter with an offset_factor or an
  // element offset has one, dynamic or constant, as T.match_buffer of a
  // parameter gives. Anything else would be laid out other than the node
  // says: refused, not dropped.
  py::list strides = buffer.attr("strides");
  if (!strides.empty()) {
    int64_t compact = 1;
    bool matches = strides.size() == shape.size();
    for (int64_t k = static_cast<int64_t>(shape.size()) - 1; matches && k >= 0;
         --k) {
      py::handle stride = strides[k];
      matches = typeName(stride) == "IntImm" &&
                intOf(stride.attr("value")) == compact &&
                (k == 0 || !ShapedType::isDynamic(shape[k]));
      if (k > 0 && matches)
        compact *= shape[k];
    }
    if (!matches && anyLayout)
      return MemRefType::get(
          shape, elem,
          StridedLayoutAttr::get(
              ctx(), ShapedType::kDynamic,
              SmallVector<int64_t>(shape.size(), ShapedType::kDynamic)),
          space);
    if (!matches)
      fail("buffer " + name +
           ": strides other than the row-major ones of its shape, as "
           "constants (tir's parameters and allocations are row-major; "
           "strides are for T.match_buffer of a region in a block)");
  }
  // (An allocation starts at its beginning, which any offset_factor
  // divides.)
  py::object offset = buffer.attr("elem_offset");
  int64_t factor = py::cast<int64_t>(buffer.attr("offset_factor"));
  bool givenOffset = !offset.is_none() && !(typeName(offset) == "IntImm" &&
                                            intOf(offset.attr("value")) == 0);
  if (!givenOffset && !(isParam && factor > 0))
    return MemRefType::get(shape, elem, MemRefLayoutAttrInterface(), space);
  if (!isParam)
    fail("buffer " + name +
         ": an allocated buffer starts at its beginning (elem_offset is for "
         "parameters and views)");
  int64_t staticOffset = !offset.is_none() && typeName(offset) == "IntImm"
                             ? intOf(offset.attr("value"))
                             : ShapedType::kDynamic;
  SmallVector<int64_t> rowMajor(shape.size(), 1);
  for (int64_t k = static_cast<int64_t>(shape.size()) - 2; k >= 0; --k)
    rowMajor[k] = ShapedType::isDynamic(shape[k + 1]) ||
                          ShapedType::isDynamic(rowMajor[k + 1])
                      ? ShapedType::kDynamic
                      : rowMajor[k + 1] * shape[k + 1];
  return MemRefType::get(shape, elem,
                         StridedLayoutAttr::get(ctx(), staticOffset, rowMajor),
                         space);
}

Value FunctionBuilder::bufferOf(py::handle buffer) {
  auto it = buffers.find(buffer.ptr());
  if (it == buffers.end())
    fail("buffer " + py::str(buffer.attr("name")).cast<std::string>() +
         " is used where nothing declares it (a parameter's buffer_map, "
         "alloc_buffers or match_buffers)");
  return it->second;
}

DictionaryAttr FunctionBuilder::annotations(py::handle dict) {
  SmallVector<NamedAttribute> attrs;
  for (auto item : py::reinterpret_borrow<py::dict>(dict))
    attrs.push_back(b.getNamedAttr(py::str(item.first).cast<std::string>(),
                                   annotation(item.second)));
  return attrs.empty() ? DictionaryAttr() : b.getDictionaryAttr(attrs);
}

Attribute FunctionBuilder::annotation(py::handle v) {
  try {
    return attributeOf(v, "an annotation");
  } catch (const py::type_error &e) {
    fail(e.what());
  }
}

bool FunctionBuilder::regionsHold(py::handle block) {
  py::list reads = block.attr("reads"), writes = block.attr("writes");
  if (!py::hasattr(block, "_read_with"))
    return reads.size() || writes.size();
  py::tuple source = block.attr("_read_with");
  auto same = [](py::handle a, py::handle b) {
    py::list x = py::reinterpret_borrow<py::list>(a);
    py::list y = py::list(py::reinterpret_borrow<py::object>(b));
    if (x.size() != y.size())
      return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (x[i].ptr() != y[i].ptr())
        return false;
    return true;
  };
  if (!same(reads, source[2]) || !same(writes, source[3]))
    return true; // set by hand
  return block.attr("body").ptr() == source[0].ptr() &&
         block.attr("init").ptr() == source[1].ptr() &&
         same(block.attr("match_buffers"), source[4]);
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

FunctionBuilder::LocatedAt::LocatedAt(FunctionBuilder &builder, py::handle node)
    : builder(builder), saved(builder.loc) {
  py::object span = py::getattr(node, "span", py::none());
  if (span.is_none())
    return;
  py::object source = span.attr("source_name");
  std::string file = py::str(py::getattr(source, "name", source));
  builder.loc = FileLineColLoc::get(builder.ctx(), file,
                                    span.attr("line").cast<unsigned>(),
                                    span.attr("column").cast<unsigned>());
}

void FunctionBuilder::stmt(py::handle s) {
  LocatedAt here(*this, s);
  std::string kind = typeName(s);
  if (kind == "SeqStmt") {
    for (py::handle x : s.attr("seq"))
      stmt(x);
    return;
  }
  if (kind == "For")
    return forLoop(s);
  if (kind == "BlockRealize")
    return blockRealize(s);
  if (kind == "BufferStore")
    return store(s);
  if (kind == "LetStmt") {
    // The name of a value (TVMScript's alias), in scope in the body.
    // An index expression names an index value, as the parser's alias of
    // one does.
    py::object var = s.attr("var"), v = s.attr("value");
    vars[var.ptr()] = isIndexExpr(v) ? materializeIndex(v) : value(v);
    stmt(s.attr("body"));
    vars.erase(var.ptr());
    return;
  }
  if (kind == "Evaluate") {
    py::object v = s.attr("value");
    if (typeName(v) == "IntImm")
      return; // T.evaluate(0)
    if (typeName(v) == "BufferLoad") {
      // T.evaluate(A[i]): a read whose value goes nowhere (the block still
      // reads the element).
      (void)value(v);
      return;
    }
    if (typeName(v) != "Call")
      fail("T.evaluate of a " + typeName(v) +
           " (only calls and buffer loads are statements)");
    call(v, /*asStatement=*/true);
    return;
  }
  if (kind == "AllocateConst")
    return allocateConst(s);
  if (kind == "DeclBuffer")
    return declBuffer(s);
  if (kind == "IfThenElse") {
    Value c = value(s.attr("condition"));
    if (!c.getType().isInteger(1))
      fail("an if statement needs a boolean condition");
    bool hasElse = !s.attr("else_case").is_none();
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{}, c, hasElse);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      stmt(s.attr("then_case"));
      if (hasElse) {
        b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
        stmt(s.attr("else_case"));
      }
    }
    return;
  }
  fail("tir." + kind + " has no form as a tir statement");
}

std::pair<OpFoldResult, OpFoldResult>
FunctionBuilder::bounds(py::handle min, py::handle extent) {
  OpFoldResult lo;
  if (typeName(min) == "IntImm")
    lo = b.getIndexAttr(intOf(min.attr("value")));
  else
    lo = indexValue(min);
  if (typeName(min) == "IntImm" && intOf(min.attr("value")) == 0 &&
      !isIndexExpr(extent))
    return {lo, indexValue(extent)};
  if (!isIndexExpr(min) || !isIndexExpr(extent)) {
    Value l = isa<Value>(lo) ? cast<Value>(lo) : indexValue(min);
    return {lo, Value(arith::AddIOp::create(b, loc, l, indexValue(extent)))};
  }
  SmallVector<Value> inputs;
  AffineExpr end = simplifyIndexExpr(
      indexExpr(min, inputs) + indexExpr(extent, inputs), inputs.size(), 0);
  if (auto k = dyn_cast<AffineConstantExpr>(end))
    return {lo, b.getIndexAttr(k.getValue())};
  if (auto d = dyn_cast<AffineDimExpr>(end))
    return {lo, inputs[d.getPosition()]};
  if (typeName(min) == "IntImm" && intOf(min.attr("value")) == 0)
    return {lo, indexValue(extent)};
  Value l = isa<Value>(lo) ? cast<Value>(lo) : indexValue(min);
  return {lo, Value(arith::AddIOp::create(b, loc, l, indexValue(extent)))};
}

void FunctionBuilder::forLoop(py::handle s) {
  auto [lo, hi] = bounds(s.attr("min"), s.attr("extent"));
  int kindValue = s.attr("kind").cast<int>();
  static const ForKind kinds[] = {ForKind::Serial, ForKind::Parallel,
                                  ForKind::Vectorized, ForKind::Unrolled,
                                  ForKind::ThreadBinding};
  if (kindValue < 0 || kindValue > 4)
    fail("a For of kind " + std::to_string(kindValue) + " has no tir loop");
  StringAttr thread;
  if (kinds[kindValue] == ForKind::ThreadBinding) {
    py::object binding = s.attr("thread_binding");
    std::string tag =
        py::hasattr(binding, "thread_tag")
            ? py::str(binding.attr("thread_tag")).cast<std::string>()
            : py::str(binding).cast<std::string>();
    thread = b.getStringAttr(tag);
  }
  auto loop = ForOp::create(b, loc, lo, hi, kinds[kindValue], thread);
  py::object var = s.attr("loop_var");
  loop.setVarNameAttr(
      b.getStringAttr(py::str(var.attr("name")).cast<std::string>()));
  if (DictionaryAttr ann = annotations(s.attr("annotations")))
    loop.setAnnotationsAttr(ann);
  vars[var.ptr()] = loop.getInductionVar();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  if (!loop.getBody()->empty())
    b.setInsertionPoint(&loop.getBody()->back());
  stmt(s.attr("body"));
  vars.erase(var.ptr());
}

Value FunctionBuilder::declareBuffer(py::handle buffer) {
  SmallVector<Value> dyn;
  MemRefType type = memrefType(buffer, /*isParam=*/false, &dyn);
  std::string name = py::str(buffer.attr("name")).cast<std::string>();
  auto alloc = AllocBufferOp::create(b, loc, type, dyn, b.getStringAttr(name),
                                     DenseI64ArrayAttr());
  if (py::hasattr(buffer, "axis_separators")) {
    SmallVector<int64_t> seps;
    for (py::handle x : buffer.attr("axis_separators"))
      seps.push_back(intOf(x));
    if (!seps.empty())
      alloc.setAxisSeparatorsAttr(b.getDenseI64ArrayAttr(seps));
  }
  std::string dtype = py::str(buffer.attr("dtype")).cast<std::string>();
  if (isUnsignedDtype(dtype))
    alloc->setAttr(TIRDialect::kDtypeAttrName, b.getStringAttr(dtype));
  buffers[buffer.ptr()] = alloc.getBuffer();
  bufferNodes[buffer.ptr()] = py::reinterpret_borrow<py::object>(buffer);
  return alloc.getBuffer();
}

void FunctionBuilder::blockRealize(py::handle s) {
  py::object block = s.attr("block");
  LocatedAt here(*this, block);
  py::list iterVars = block.attr("iter_vars");
  py::list values = s.attr("iter_values");
  // Domains and bindings, then the predicate, over the binding inputs.
  SmallVector<Value> inputs;
  SmallVector<IterVarSpec> specs;
  SmallVector<std::string> names;
  for (auto [iv, v] : llvm::zip(iterVars, values)) {
    py::object dom = iv.attr("dom");
    py::object min = dom.attr("min"), extent = dom.attr("extent");
    IterVarSpec spec;
    int type = iv.attr("iter_type").cast<int>();
    spec.type = type == 0   ? IterType::Spatial
                : type == 2 ? IterType::Reduce
                : type == 3 ? IterType::Scan
                : type == 4 ? IterType::Opaque
                            : (fail("iteration variable of iter_type " +
                                    std::to_string(type) + " has no tir kind"),
                               IterType::Spatial);
    std::tie(spec.lower, spec.upper) = bounds(min, extent);
    spec.binding = indexExpr(v, inputs);
    names.push_back(py::str(iv.attr("var").attr("name")).cast<std::string>());
    specs.push_back(spec);
  }
  for (auto [spec, name] : llvm::zip(specs, names))
    spec.name = name;
  SmallVector<Conjunction> predicate;
  Value conditionValue;
  py::object pred = s.attr("predicate");
  bool always = typeName(pred) == "IntImm" && intOf(pred.attr("value"));
  if (!always) {
    SmallVector<Value> trial(inputs);
    if (condition(pred, trial, predicate)) {
      inputs = trial;
      for (Conjunction &c : predicate)
        for (AffineExpr &e : c.constraints)
          e = simplifyIndexExpr(e, inputs.size(), 0);
    } else {
      predicate.clear();
      conditionValue = value(pred);
    }
  }
  // Regions: over the iteration variables, then other values.
  BlockRegionsSpec regions;
  bool hold = regionsHold(block);
  // A script's block says which regions it gives (the others are
  // inferred).
  bool givesReads = hold, givesWrites = hold;
  if (py::hasattr(block, "_regions_given")) {
    py::tuple given = block.attr("_regions_given");
    givesReads = given[0].cast<bool>();
    givesWrites = given[1].cast<bool>();
    hold = givesReads || givesWrites;
  }
  auto op = BlockOp::create(
      b, loc, py::str(block.attr("name_hint")).cast<std::string>(), specs,
      inputs, nullptr, predicate, nullptr);
  if (conditionValue) {
    op.getConditionMutable().assign(conditionValue);
  }
  Block *body = op.getBody();
  DenseMap<Value, unsigned> positions;
  for (auto [k, iv] : llvm::enumerate(iterVars)) {
    vars[iv.attr("var").ptr()] = body->getArgument(k);
    positions[body->getArgument(k)] = k;
  }
  OpBuilder::InsertionGuard guard(b);
  if (hold) {
    // Values the regions compute come before the block.
    b.setInsertionPoint(op);
    py::list reads = block.attr("reads"), writes = block.attr("writes");
    for (py::handle r : reads)
      regions.reads.push_back(
          {bufferOf(r.attr("buffer")),
           region(r, iterVars.size(), regions.regionValues, positions)});
    for (py::handle w : writes)
      regions.writes.push_back(
          {bufferOf(w.attr("buffer")),
           region(w, iterVars.size(), regions.regionValues, positions)});
  }
  b.setInsertionPointToStart(body);
  for (py::handle buf : block.attr("alloc_buffers"))
    declareBuffer(buf);
  for (py::handle match : block.attr("match_buffers")) {
    py::object view = match.attr("buffer"), source = match.attr("source");
    Value src = bufferOf(source.attr("buffer"));
    SmallVector<Value> matchInputs;
    RegionExprs r;
    for (py::handle range : source.attr("region")) {
      r.starts.push_back(indexExpr(range.attr("min"), matchInputs));
      r.extents.push_back(indexExpr(range.attr("extent"), matchInputs));
    }
    auto srcType = cast<MemRefType>(src.getType());
    auto [strides, offset] = srcType.getStridesAndOffset();
    SmallVector<int64_t> shape;
    for (py::handle d : view.attr("shape")) {
      if (typeName(d) != "IntImm")
        fail("the shape of a matched region is integer constants");
      shape.push_back(intOf(d.attr("value")));
    }
    if (shape.size() > strides.size())
      fail("the matched shape has more dimensions than the buffer");
    auto layout = StridedLayoutAttr::get(
        ctx(), ShapedType::kDynamic,
        ArrayRef<int64_t>(strides).take_back(shape.size()));
    auto type = MemRefType::get(shape, srcType.getElementType(), layout,
                                srcType.getMemorySpace());
    OperationState state(loc, MatchBufferOp::getOperationName());
    state.addOperands(src);
    state.addOperands(matchInputs);
    state.addAttribute("source_region", AffineMapAttr::get(buildRegionMap(
                                            matchInputs.size(), r, ctx())));
    if (py::hasattr(view, "axis_separators")) {
      SmallVector<int64_t> seps;
      for (py::handle x : view.attr("axis_separators"))
        seps.push_back(intOf(x));
      if (!seps.empty())
        state.addAttribute("axis_separators", b.getDenseI64ArrayAttr(seps));
    }
    state.addTypes(type);
    Value result = b.create(state)->getResult(0);
    buffers[view.ptr()] = result;
    bufferNodes[view.ptr()] = view;
  }
  py::object init = block.attr("init");
  if (!init.is_none()) {
    auto initOp = InitOp::create(b, loc);
    if (initOp->getRegion(0).empty())
      initOp->getRegion(0).emplaceBlock();
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(&initOp->getRegion(0).front());
    stmt(init);
  }
  stmt(block.attr("body"));
  if (DictionaryAttr ann = annotations(block.attr("annotations")))
    op.setAnnotationsAttr(ann);
  if (hold) {
    // The regions are over values defined before the block.
    unsigned n = iterVars.size() + regions.regionValues.size();
    auto maps = [&](ArrayRef<std::pair<Value, RegionExprs>> list) {
      SmallVector<Attribute> out;
      for (const auto &[buf, r] : list)
        out.push_back(AffineMapAttr::get(buildRegionMap(n, r, ctx())));
      return b.getArrayAttr(out);
    };
    SmallVector<Value> readBuffers, writeBuffers;
    for (auto &[buf, r] : regions.reads)
      readBuffers.push_back(buf);
    for (auto &[buf, r] : regions.writes)
      writeBuffers.push_back(buf);
    op.getRegionValuesMutable().assign(regions.regionValues);
    if (givesReads) {
      op.getReadBuffersMutable().assign(readBuffers);
      op.setReadRegionsAttr(maps(regions.reads));
    }
    if (givesWrites) {
      op.getWriteBuffersMutable().assign(writeBuffers);
      op.setWriteRegionsAttr(maps(regions.writes));
    }
  }
  for (py::handle iv : iterVars)
    vars.erase(iv.attr("var").ptr());
}

void FunctionBuilder::allocateConst(py::handle s) {
  std::string dtype = dtypeOf(s);
  Type elem = scalarType(dtype);
  SmallVector<int64_t> shape;
  for (py::handle e : s.attr("extents")) {
    if (typeName(e) != "IntImm")
      fail("T.allocate_const takes constant extents");
    shape.push_back(intOf(e.attr("value")));
  }
  auto type = RankedTensorType::get(shape, elem);
  py::list data = s.attr("data");
  if (static_cast<int64_t>(data.size()) != type.getNumElements())
    fail("T.allocate_const: " + std::to_string(data.size()) + " values for " +
         std::to_string(type.getNumElements()) + " elements");
  SmallVector<Attribute> values;
  for (py::handle v : data)
    values.push_back(isa<FloatType>(elem)
                         ? Attribute(b.getFloatAttr(elem, v.cast<double>()))
                         : Attribute(b.getIntegerAttr(elem, intOf(v))));
  auto op = AllocateConstOp::create(
      b, loc, MemRefType::get(shape, elem),
      DenseElementsAttr::get(type, values),
      b.getStringAttr(
          py::str(s.attr("buffer_var").attr("name")).cast<std::string>()));
  py::object var = s.attr("buffer_var");
  constData[var.ptr()] = op.getBuffer();
  stmt(s.attr("body"));
  constData.erase(var.ptr());
}

void FunctionBuilder::declBuffer(py::handle s) {
  py::object buf = s.attr("buffer");
  auto it = constData.find(buf.attr("data").ptr());
  if (it == constData.end())
    fail("DeclBuffer of " + py::str(buf.attr("name")).cast<std::string>() +
         ": tir declares buffers over T.allocate_const data only (its data "
         "is no AllocateConst's buffer_var in scope)");
  auto type = cast<MemRefType>(it->second.getType());
  SmallVector<int64_t> shape;
  for (py::handle d : buf.attr("shape"))
    shape.push_back(typeName(d) == "IntImm" ? intOf(d.attr("value"))
                                            : ShapedType::kDynamic);
  if (ArrayRef<int64_t>(shape) != type.getShape() ||
      scalarType(py::str(buf.attr("dtype"))) != type.getElementType())
    fail("DeclBuffer of " + py::str(buf.attr("name")).cast<std::string>() +
         ": a reinterpreting view of constant data (another shape or dtype) "
         "is not supported");
  buffers[buf.ptr()] = it->second;
  bufferNodes[buf.ptr()] = buf;
  stmt(s.attr("body"));
  buffers.erase(buf.ptr());
  bufferNodes.erase(buf.ptr());
}

void FunctionBuilder::store(py::handle s) {
  py::object buf = s.attr("buffer");
  Value memref = bufferOf(buf);
  Type element = cast<MemRefType>(memref.getType()).getElementType();
  Value stored = valueOf(s.attr("value"), element,
                         isUnsignedDtype(py::str(buf.attr("dtype"))));
  SmallVector<Value> inputs;
  SmallVector<AffineExpr> exprs;
  for (py::handle i : s.attr("indices"))
    exprs.push_back(indexExpr(i, inputs));
  StoreOp::create(b, loc, stored, memref,
                  makeInputMap(inputs.size(), exprs, ctx()), inputs);
}
