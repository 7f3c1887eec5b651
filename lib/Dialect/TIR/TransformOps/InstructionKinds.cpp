//===- InstructionKinds.cpp - TVM's instruction kinds and their layout ----===//
//
// Each of TVM's instruction kinds: its name, whether it is pure, its
// transform.tir op, and TVM's layout of its instructions (the inputs and
// attrs arrays TVM's Instruction holds, in TVM's order and types), which is
// what TVM's Python objects and JSON show. An instruction is held in its
// op's layout (Trace.h); the layout below maps one to the other:
//
//   inputs: an operand of the op as one random variable ("block"), a
//           variadic operand spread over the inputs ("*loops") or as one
//           list ("[consumer_blocks]"), an attribute given as an input
//           ("@ann_val", or with its type: "@new_order:a"; with
//           "|operand", a random variable of that variadic operand in
//           its place: annotate's sampled value), or the
//           factors of a split ("factors": the loop,
//           then one input per factor: None, an integer or a random
//           variable);
//   attrs:  attributes of the op, each with the type TVM gives it.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Dialect/TIR/IR/TIRAttrs.h"
#include "TensorIR/Dialect/TIR/TransformOps/ScheduleOpInterface.h"
#include "TensorIR/Dialect/TIR/TransformOps/Trace.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::tir;

/// How an attribute is typed in TVM's layout: b(ool), i(nteger),
/// s(tring), a(rray of integers), f(loat array), m(ap: an index map),
/// k(ind of buffer: TVM's 0 / 1 for our "read" / "write"), p (a typed
/// attribute: a pad value, a number of the buffer's type or an index map),
/// x (any).
struct InstructionKind::Spec {
  const char *name, *mnemonic;
  bool pure, sampling;
  std::vector<const char *> inputs;
  /// "name:type" with type one of the letters above.
  std::vector<const char *> attrs;
};

namespace {
using Spec = InstructionKind::Spec;
const Spec kSpecs[] = {
    {"AddUnitLoop", "add_unit_loop", false, false, {"block_or_loop"}, {}},
    {"Annotate",
     "annotate",
     false,
     false,
     {"block_or_loop", "@ann_val|ann_param"},
     {"ann_key:s"}},
    {"AnnotateBufferAccess",
     "annotate_buffer_access",
     false,
     false,
     {"block", "@buffer_index:i", "@buf_type:k", "@gen_new_ranges:m"},
     {}},
    {"Bind", "bind", false, false, {"loop"}, {"thread_axis:s"}},
    {"Blockize",
     "blockize",
     false,
     false,
     {"target"},
     {"preserve_unit_iters:b"}},
    {"CacheIndex",
     "cache_index",
     false,
     false,
     {"block"},
     {"storage_scope:s", "cse_thresh:i"}},
    {"CacheInplace",
     "cache_inplace",
     false,
     false,
     {"block"},
     {"read_buffer_index:i", "storage_scope:s"}},
    {"CacheRead",
     "cache_read",
     false,
     false,
     {"block", "[consumer_blocks]"},
     {"read_buffer_index:i", "storage_scope:s"}},
    {"CacheWrite",
     "cache_write",
     false,
     false,
     {"block", "[consumer_blocks]"},
     {"write_buffer_index:i", "storage_scope:s"}},
    {"ComputeAt",
     "compute_at",
     false,
     false,
     {"block", "loop"},
     {"preserve_unit_loops:b", "index:i"}},
    {"ComputeInline", "compute_inline", false, false, {"block"}, {}},
    {"DecomposePadding",
     "decompose_padding",
     false,
     false,
     {"block", "loop"},
     {}},
    {"DecomposeReduction",
     "decompose_reduction",
     false,
     false,
     {"block", "loop"},
     {}},
    {"EnterPostproc", "enter_postproc", false, false, {}, {}},
    {"Fuse", "fuse", false, false, {"*loops"}, {"preserve_unit_iters:b"}},
    {"FuseReductionEpilogue",
     "fuse_reduction_epilogue",
     false,
     false,
     {"reduction_block", "epilogue_block"},
     {}},
    {"GetBlock", "get_block", true, false, {}, {"name:s", "func_name:s"}},
    {"GetChildBlocks", "get_child_blocks", true, false, {"block_or_loop"}, {}},
    {"GetConsumers", "get_consumers", true, false, {"block"}, {}},
    {"GetLoops", "get_loops", true, false, {"block"}, {}},
    {"GetOutputBlocks", "get_output_blocks", true, false, {"scope_block"}, {}},
    {"GetProducers", "get_producers", true, false, {"block"}, {}},
    {"LoopPartition",
     "loop_partition",
     false,
     false,
     {"factors"},
     {"preserve_unit_iters:b"}},
    {"Merge", "merge", false, false, {"*loops"}, {}},
    {"PadEinsum", "pad_einsum", false, false, {"block"}, {"padding:a"}},
    {"Parallel", "parallel", false, false, {"loop"}, {}},
    {"RFactor", "rfactor", false, false, {"loop"}, {"factor_axis:i"}},
    {"ReadAt",
     "read_at",
     false,
     false,
     {"loop", "block"},
     {"read_buffer_index:i", "storage_scope:s"}},
    {"ReIndex",
     "reindex",
     false,
     false,
     {"block"},
     {"buffer_index:i", "buffer_index_type:k"}},
    {"ReindexCacheRead",
     "reindex_cache_read",
     false,
     false,
     {"block", "@index_map"},
     {"read_buffer_index:i", "storage_scope:s"}},
    {"ReindexCacheWrite",
     "reindex_cache_write",
     false,
     false,
     {"block", "@index_map"},
     {"write_buffer_index:i", "storage_scope:s"}},
    {"Reorder", "reorder", false, false, {"*ordered_loops"}, {}},
    {"ReorderBlockIterVar",
     "reorder_block_iter_var",
     false,
     false,
     {"block", "@new_order:a"},
     {}},
    {"ReverseComputeAt",
     "reverse_compute_at",
     false,
     false,
     {"block", "loop"},
     {"preserve_unit_loops:b", "index:i"}},
    {"ReverseComputeInline",
     "reverse_compute_inline",
     false,
     false,
     {"block"},
     {}},
    {"RollingBuffer",
     "rolling_buffer",
     false,
     false,
     {"block"},
     {"write_buffer_index:i"}},
    {"SampleCategorical",
     "sample_categorical",
     true,
     true,
     {},
     {"candidates:a", "probs:f"}},
    {"SampleComputeLocation",
     "sample_compute_location",
     true,
     true,
     {"block"},
     {}},
    {"SamplePerfectTile",
     "sample_perfect_tile",
     true,
     true,
     {"loop"},
     {"n:i", "max_innermost_factor:i"}},
    {"SetAxisSeparator",
     "set_axis_separator",
     false,
     false,
     {"block"},
     {"buffer_index:i", "buffer_index_type:k", "axis_separators:a"}},
    {"SetScope",
     "set_scope",
     false,
     false,
     {"block"},
     {"buffer_index:i", "storage_scope:s"}},
    {"Split",
     "split",
     false,
     false,
     {"factors"},
     {"preserve_unit_iters:b", "disable_predication:b"}},
    {"StorageAlign",
     "storage_align",
     false,
     false,
     {"block"},
     {"buffer_index:i", "axis:i", "factor:i", "offset:i"}},
    {"Tensorize",
     "tensorize",
     false,
     false,
     {"target"},
     {"tensor_intrin:s", "preserve_unit_iters:b"}},
    {"TransformBlockLayout",
     "transform_block_layout",
     false,
     false,
     {"block"},
     {"index_map:m"}},
    {"TransformLayout",
     "transform_layout",
     false,
     false,
     // The sampled values the map uses follow TVM's two inputs.
     {"block", "@index_map", "*index_map_params"},
     {"buffer_index:i", "buffer_index_type:k", "pad_value:p",
      "assume_injective_transform:b"}},
    {"Unannotate",
     "unannotate",
     false,
     false,
     {"block_or_loop"},
     {"ann_key:s"}},
    {"UnsafeSetDType",
     "unsafe_set_dtype",
     false,
     false,
     {"block"},
     {"buffer_index:i", "dtype:s"}},
    {"Unroll", "unroll", false, false, {"loop"}, {}},
    {"Vectorize", "vectorize", false, false, {"loop"}, {}},
    {"WriteAt",
     "write_at",
     false,
     false,
     {"loop", "block"},
     {"write_buffer_index:i", "storage_scope:s"}},
};

struct KindTable {
  std::vector<std::unique_ptr<InstructionKind>> owned;
  std::vector<const InstructionKind *> all;
  llvm::StringMap<const InstructionKind *> byName, byMnemonic;
  KindTable() {
    for (const Spec &spec : kSpecs) {
      owned.push_back(std::make_unique<InstructionKind>(spec));
      all.push_back(owned.back().get());
      byName[spec.name] = owned.back().get();
      byMnemonic[spec.mnemonic] = owned.back().get();
    }
  }
  static const KindTable &get() {
    static const KindTable table;
    return table;
  }
};
} // namespace

InstructionKind::InstructionKind(const Spec &spec)
    : name(spec.name), mnemonic(spec.mnemonic), pure(spec.pure),
      sampling(spec.sampling), spec(&spec) {}

const InstructionKind *InstructionKind::lookup(StringRef name) {
  return KindTable::get().byName.lookup(name);
}
const InstructionKind *InstructionKind::lookupByMnemonic(StringRef mnemonic) {
  return KindTable::get().byMnemonic.lookup(mnemonic);
}
ArrayRef<const InstructionKind *> InstructionKind::all() {
  return KindTable::get().all;
}

//===----------------------------------------------------------------------===//
// TVM's layout
//===----------------------------------------------------------------------===//

/// The op's operand names, in order (its groups).
static ArrayRef<StringLiteral> operandNames(MLIRContext *ctx,
                                            StringRef mnemonic) {
  std::optional<RegisteredOperationName> name =
      RegisteredOperationName::lookup(("transform.tir." + mnemonic).str(), ctx);
  auto *model = name ? name->getInterface<ScheduleOpInterface>() : nullptr;
  return model ? model->getPythonOperandNames() : ArrayRef<StringLiteral>();
}

static std::optional<size_t> groupIndex(MLIRContext *ctx, StringRef mnemonic,
                                        StringRef operand) {
  ArrayRef<StringLiteral> names = operandNames(ctx, mnemonic);
  auto it = llvm::find(names, operand);
  if (it == names.end())
    return std::nullopt;
  return it - names.begin();
}

/// The attribute `name` of `inst`, or the op's default for it.
static Attribute attributeOrDefault(MLIRContext *ctx, const Instruction &inst,
                                    StringRef name) {
  if (Attribute a = inst.attributes ? inst.attributes.get(name) : Attribute())
    return a;
  std::optional<RegisteredOperationName> op = RegisteredOperationName::lookup(
      ("transform.tir." + inst.kind->getMnemonic()).str(), ctx);
  if (!op)
    return {};
  NamedAttrList defaults;
  op->populateDefaultAttrs(defaults);
  return defaults.get(name);
}

/// An attribute as TVM's layout types it.
static TVMValue constantOf(Attribute value, char type) {
  if (!value)
    return TVMValue::none();
  if (auto array = dyn_cast<ArrayAttr>(value); array && type == 'x') {
    std::vector<TVMValue> list;
    for (Attribute item : array)
      list.push_back(constantOf(item, 'x'));
    return TVMValue::of(std::move(list));
  }
  MLIRContext *ctx = value.getContext();
  Builder b(ctx);
  if (type == 'k')
    if (auto s = dyn_cast<StringAttr>(value))
      return TVMValue::of(b.getI64IntegerAttr(s.getValue() == "write" ? 1 : 0));
  if (type == 'a')
    if (auto a = dyn_cast<DenseI64ArrayAttr>(value)) {
      std::vector<TVMValue> list;
      for (int64_t v : a.asArrayRef())
        list.push_back(TVMValue::of(b.getI64IntegerAttr(v)));
      return TVMValue::of(std::move(list));
    }
  if (type == 'f')
    if (auto a = dyn_cast<DenseF64ArrayAttr>(value)) {
      std::vector<TVMValue> list;
      for (double v : a.asArrayRef())
        list.push_back(TVMValue::of(b.getF64FloatAttr(v)));
      return TVMValue::of(std::move(list));
    }
  return TVMValue::of(value);
}

std::string InstructionKind::getAttrTypes() const {
  std::string types;
  for (StringRef entry : spec->attrs)
    types += entry.split(':').second.front();
  return types;
}

void InstructionKind::getTVMLayout(const Instruction &inst,
                                   std::vector<TVMValue> &inputs,
                                   std::vector<TVMValue> &attrs) const {
  MLIRContext *ctx = nullptr;
  if (inst.attributes)
    ctx = inst.attributes.getContext();
  auto group = [&](StringRef operand) -> const std::vector<RV> * {
    if (!ctx)
      return nullptr;
    std::optional<size_t> index = groupIndex(ctx, mnemonic, operand);
    if (!index || *index >= inst.operands.size())
      return nullptr;
    return &inst.operands[*index];
  };
  static const std::vector<RV> empty;
  for (StringRef entry : spec->inputs) {
    if (entry == "factors") {
      // The loop, then one input per factor.
      const std::vector<RV> &loop = *group("loop");
      const std::vector<RV> *params = group("factor_params");
      inputs.push_back(loop.empty() ? TVMValue::none()
                                    : TVMValue::of(loop.front()));
      auto factors = dyn_cast_if_present<ArrayAttr>(
          inst.attributes ? inst.attributes.get("factors") : Attribute());
      for (Attribute a : factors ? factors.getValue() : ArrayRef<Attribute>()) {
        auto factor = cast<SplitFactorAttr>(a);
        switch (factor.getKind()) {
        case SplitFactorKind::Inferred:
          inputs.push_back(TVMValue::none());
          break;
        case SplitFactorKind::Constant:
          inputs.push_back(
              TVMValue::of(Builder(ctx).getI64IntegerAttr(factor.getValue())));
          break;
        case SplitFactorKind::Param:
          inputs.push_back(params && factor.getValue() <
                                         static_cast<int64_t>(params->size())
                               ? TVMValue::of((*params)[factor.getValue()])
                               : TVMValue::none());
          break;
        case SplitFactorKind::Scalable:
          inputs.push_back(TVMValue::of(a));
          break;
        }
      }
      continue;
    }
    if (entry.consume_front("@")) {
      auto [attrEntry, alternative] = entry.split('|');
      if (const std::vector<RV> *rvs =
              alternative.empty() ? nullptr : group(alternative);
          rvs && !rvs->empty()) {
        inputs.push_back(TVMValue::of(rvs->front()));
        continue;
      }
      auto [attrName, typeName] = attrEntry.split(':');
      Attribute value = attributeOrDefault(ctx, inst, attrName);
      // An index map over runtime values (TVM's free variables): the map
      // and the names of its symbols, together.
      if (attrName == "index_map" && inst.attributes)
        if (Attribute names = inst.attributes.get("index_map_symbols"))
          value = DictionaryAttr::get(
              ctx, {NamedAttribute(StringAttr::get(ctx, "index_map"), value),
                    NamedAttribute(StringAttr::get(ctx, "index_map_symbols"),
                                   names)});
      inputs.push_back(
          constantOf(value, typeName.empty() ? 'x' : typeName.front()));
      continue;
    }
    bool spread = entry.consume_front("*");
    bool listed = entry.consume_front("[") && entry.consume_back("]");
    const std::vector<RV> *rvs = group(entry);
    if (!rvs)
      rvs = &empty;
    if (spread) {
      for (const RV &rv : *rvs)
        inputs.push_back(TVMValue::of(rv));
    } else if (listed) {
      std::vector<TVMValue> list;
      for (const RV &rv : *rvs)
        list.push_back(TVMValue::of(rv));
      inputs.push_back(TVMValue::of(std::move(list)));
    } else if (entry == "target" && rvs->size() != 1) {
      // Blockize of several blocks: TVM's list.
      std::vector<TVMValue> list;
      for (const RV &rv : *rvs)
        list.push_back(TVMValue::of(rv));
      inputs.push_back(TVMValue::of(std::move(list)));
    } else {
      inputs.push_back(rvs->empty() ? TVMValue::none()
                                    : TVMValue::of(rvs->front()));
    }
  }
  for (StringRef entry : spec->attrs) {
    auto [attrName, type] = entry.split(':');
    attrs.push_back(
        constantOf(attributeOrDefault(ctx, inst, attrName), type.front()));
  }
}

/// `value` as the op's attribute of TVM's `type`; null with `error` set
/// when it is not one.
static Attribute attributeOf(MLIRContext *ctx, const TVMValue &value, char type,
                             StringRef what, std::string &error) {
  Builder b(ctx);
  auto fail = [&](StringRef expected) {
    error = (what + " is " + expected).str();
    return Attribute();
  };
  if (value.tag == TVMValue::Tag::Variable)
    return fail("a constant here, not a random variable");
  if (value.tag == TVMValue::Tag::List && type == 'x') {
    // Any list: an array of its items.
    SmallVector<Attribute> items;
    for (const TVMValue &item : value.list) {
      Attribute a = attributeOf(ctx, item, 'x', what, error);
      if (!a)
        return fail("a list of constants");
      items.push_back(a);
    }
    return b.getArrayAttr(items);
  }
  if (value.tag == TVMValue::Tag::List) {
    if (type != 'a' && type != 'f')
      return fail("not a list");
    SmallVector<int64_t> ints;
    SmallVector<double> floats;
    for (const TVMValue &item : value.list) {
      auto i = item.tag == TVMValue::Tag::Constant
                   ? dyn_cast<IntegerAttr>(item.constant)
                   : IntegerAttr();
      auto f = item.tag == TVMValue::Tag::Constant
                   ? dyn_cast<FloatAttr>(item.constant)
                   : FloatAttr();
      if (type == 'a' && i)
        ints.push_back(i.getInt());
      else if (type != 'a' && (i || f))
        floats.push_back(i ? static_cast<double>(i.getInt())
                           : f.getValueAsDouble());
      else
        return fail(type == 'a' ? "a list of integers" : "a list of numbers");
    }
    if (type == 'a')
      return b.getDenseI64ArrayAttr(ints);
    return b.getDenseF64ArrayAttr(floats);
  }
  Attribute a = value.constant;
  if (!a)
    return {};
  switch (type) {
  case 'b':
    if (auto i = dyn_cast<IntegerAttr>(a))
      return b.getBoolAttr(i.getValue().getBoolValue());
    return fail("a bool");
  case 'i':
    if (auto i = dyn_cast<IntegerAttr>(a))
      return b.getI64IntegerAttr(i.getType().isInteger(1)
                                     ? i.getValue().getZExtValue()
                                     : i.getValue().getSExtValue());
    return fail("an integer");
  case 's':
    if (isa<StringAttr>(a))
      return a;
    return fail("a string");
  case 'k':
    if (auto i = dyn_cast<IntegerAttr>(a); i && !i.getType().isInteger(1))
      return b.getStringAttr(i.getInt() == 1 ? "write" : "read");
    if (auto s = dyn_cast<StringAttr>(a);
        s && (s.getValue() == "read" || s.getValue() == "write"))
      return a;
    return fail("a buffer kind: 0 (read) or 1 (write)");
  case 'p':
    if (auto s = dyn_cast<StringAttr>(a)) {
      // A typed attribute as JSON writes it: its MLIR text.
      if (Attribute parsed = parseAttribute(s.getValue(), ctx))
        return parsed;
      return fail("an attribute in MLIR's syntax");
    }
    return a;
  case 'm': {
    // An index map, or as JSON writes it its MLIR text; with runtime
    // values, a dictionary of the map and its symbols' names.
    auto asMap = [&](Attribute x) -> Attribute {
      if (auto s = dyn_cast_if_present<StringAttr>(x))
        x = parseAttribute(s.getValue(), ctx);
      return isa_and_present<AffineMapAttr>(x) ? x : Attribute();
    };
    if (Attribute map = asMap(a))
      return map;
    if (auto both = dyn_cast<DictionaryAttr>(a)) {
      Attribute map = asMap(both.get("index_map"));
      auto names =
          dyn_cast_if_present<ArrayAttr>(both.get("index_map_symbols"));
      if (map && names && llvm::all_of(names, llvm::IsaPred<StringAttr>))
        return DictionaryAttr::get(
            ctx,
            {NamedAttribute(StringAttr::get(ctx, "index_map"), map),
             NamedAttribute(StringAttr::get(ctx, "index_map_symbols"), names)});
    }
    return fail("an index map");
  }
  case 'a':
    if (isa<DenseI64ArrayAttr>(a))
      return a;
    return fail("a list of integers");
  case 'f':
    if (isa<DenseF64ArrayAttr>(a))
      return a;
    return fail("a list of numbers");
  default:
    return a;
  }
}

FailureOr<Instruction> InstructionKind::fromTVMLayout(
    MLIRContext *ctx, ArrayRef<TVMValue> inputs, ArrayRef<TVMValue> attrs,
    std::vector<RV> outputs, std::string &error) const {
  Instruction inst;
  inst.kind = this;
  inst.operands.resize(operandNames(ctx, mnemonic).size());
  NamedAttrList attributes;
  auto group = [&](StringRef operand) -> std::vector<RV> * {
    std::optional<size_t> index = groupIndex(ctx, mnemonic, operand);
    return index ? &inst.operands[*index] : nullptr;
  };
  auto rvOf = [&](const TVMValue &v, StringRef what) -> RV {
    if (v.tag != TVMValue::Tag::Variable)
      error = name + ": " + what.str() + " is a random variable";
    return v.variable;
  };
  auto badCount = [&](StringRef which, size_t expected, size_t got) {
    error = name + " takes " + std::to_string(expected) + " " + which.str() +
            ", got " + std::to_string(got);
    return failure();
  };

  size_t next = 0;
  bool spreads = llvm::any_of(spec->inputs, [](StringRef e) {
    return e == "factors" || e.starts_with("*");
  });
  if (!spreads && inputs.size() != spec->inputs.size())
    return badCount("inputs", spec->inputs.size(), inputs.size());
  for (StringRef entry : spec->inputs) {
    if (entry == "factors") {
      if (inputs.empty())
        return badCount("inputs", 1, 0);
      RV loop = rvOf(inputs[next++], "the loop");
      if (!loop)
        return failure();
      group("loop")->push_back(loop);
      SmallVector<Attribute> factors;
      for (; next < inputs.size(); ++next) {
        const TVMValue &f = inputs[next];
        if (f.tag == TVMValue::Tag::None) {
          factors.push_back(SplitFactorAttr::getInferred(ctx));
        } else if (f.tag == TVMValue::Tag::Variable) {
          std::vector<RV> *params = group("factor_params");
          factors.push_back(SplitFactorAttr::getParam(ctx, params->size()));
          params->push_back(f.variable);
        } else if (auto i = f.tag == TVMValue::Tag::Constant
                                ? dyn_cast<IntegerAttr>(f.constant)
                                : IntegerAttr()) {
          factors.push_back(SplitFactorAttr::getConstant(ctx, i.getInt()));
        } else if (auto s = f.tag == TVMValue::Tag::Constant
                                ? dyn_cast<SplitFactorAttr>(f.constant)
                                : SplitFactorAttr()) {
          factors.push_back(s);
        } else {
          error = name + ": a factor is None, an integer or a random variable";
          return failure();
        }
      }
      attributes.set("factors", ArrayAttr::get(ctx, factors));
      continue;
    }
    // (A spread may be empty.)
    if (next >= inputs.size() && !entry.starts_with("*"))
      return badCount("inputs", spec->inputs.size(), inputs.size());
    if (entry.consume_front("@")) {
      const TVMValue &v = inputs[next++];
      auto [attrEntry, alternative] = entry.split('|');
      if (v.tag == TVMValue::Tag::Variable && !alternative.empty()) {
        group(alternative)->push_back(v.variable);
        continue;
      }
      auto [attrName, typeName] = attrEntry.split(':');
      entry = attrName;
      if (v.tag == TVMValue::Tag::Variable) {
        error = name + ": " + entry.str() +
                " is a constant (a random variable is not supported here)";
        return failure();
      }
      char type = entry == "index_map" ? 'm'
                  : typeName.empty()   ? 'x'
                                       : typeName.front();
      Attribute a = attributeOf(ctx, v, type, name + ": " + entry.str(), error);
      if (!a && !error.empty())
        return failure();
      if (auto both = dyn_cast_if_present<DictionaryAttr>(a);
          both && type == 'm') {
        attributes.set(entry, both.get("index_map"));
        attributes.set("index_map_symbols", both.get("index_map_symbols"));
        continue;
      }
      if (a)
        attributes.set(entry, a);
      continue;
    }
    if (entry.consume_front("*")) {
      for (; next < inputs.size(); ++next) {
        RV rv = rvOf(inputs[next], entry);
        if (!rv)
          return failure();
        group(entry)->push_back(rv);
      }
      continue;
    }
    bool listed = entry.consume_front("[") && entry.consume_back("]");
    const TVMValue &v = inputs[next++];
    if (listed || (entry == "target" && v.tag == TVMValue::Tag::List)) {
      if (v.tag != TVMValue::Tag::List && v.tag != TVMValue::Tag::None) {
        error = name + ": " + entry.str() + " is a list of random variables";
        return failure();
      }
      for (const TVMValue &item : v.list) {
        RV rv = rvOf(item, entry);
        if (!rv)
          return failure();
        group(entry)->push_back(rv);
      }
      continue;
    }
    RV rv = rvOf(v, entry);
    if (!rv)
      return failure();
    group(entry)->push_back(rv);
  }
  if (attrs.size() != spec->attrs.size())
    return badCount("attrs", spec->attrs.size(), attrs.size());
  for (auto [entry, value] : llvm::zip(spec->attrs, attrs)) {
    auto [attrName, type] = StringRef(entry).split(':');
    Attribute a = attributeOf(ctx, value, type.front(),
                              name + ": attr " + attrName.str(), error);
    if (!a && !error.empty())
      return failure();
    if (a)
      attributes.set(attrName, a);
  }
  inst.attributes = attributes.getDictionary(ctx);
  inst.outputs = std::move(outputs);
  return inst;
}
