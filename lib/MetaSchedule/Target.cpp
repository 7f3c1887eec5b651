//===- Target.cpp - the target a task is tuned for ------------------------===//

#include "TensorIR/MetaSchedule/Target.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/TargetParser/X86TargetParser.h"

using namespace mlir;
using namespace mlir::tir::ms;

FailureOr<Target> Target::fromJSON(const llvm::json::Value &json,
                                   std::string &error) {
  const llvm::json::Object *object = json.getAsObject();
  if (!object) {
    error = "a target is an object with \"kind\" and its options";
    return failure();
  }
  std::optional<StringRef> kind = object->getString("kind");
  if (!kind || kind->empty()) {
    error = "a target needs a \"kind\" (a string)";
    return failure();
  }
  Target target(kind->str());
  for (const auto &[key, value] : *object)
    if (key != "kind")
      target.options[key] = value;
  return target;
}

llvm::json::Value Target::toJSON() const {
  llvm::json::Object object = options;
  object["kind"] = kind;
  return llvm::json::Value(std::move(object));
}

std::optional<int64_t> Target::getInt(StringRef name) const {
  return options.getInteger(name);
}

std::optional<StringRef> Target::getString(StringRef name) const {
  return options.getString(name);
}

bool Target::listHas(StringRef name, StringRef item) const {
  const llvm::json::Array *list = options.getArray(name);
  if (!list)
    return false;
  return llvm::any_of(*list, [&](const llvm::json::Value &value) {
    return value.getAsString() == item;
  });
}

bool Target::isGPU() const {
  return kind == "cuda" || kind == "rocm" || kind == "vulkan" ||
         kind == "metal" || kind == "opencl" || kind == "webgpu" ||
         listHas("keys", "gpu");
}

FailureOr<std::string> Target::getRuleKind(std::string &error) const {
  if (kind == "llvm") {
    // The CPU's features (as LLVM knows the -mcpu) and those -mattr adds.
    llvm::StringSet<> features;
    if (std::optional<StringRef> cpu = getString("mcpu")) {
      SmallVector<StringRef> cpuFeatures;
      llvm::X86::getFeaturesForCPU(*cpu, cpuFeatures);
      for (StringRef feature : cpuFeatures)
        features.insert(feature);
    }
    if (const llvm::json::Array *mattr = options.getArray("mattr"))
      for (const llvm::json::Value &value : *mattr)
        if (std::optional<StringRef> text = value.getAsString()) {
          if (text->consume_front("+"))
            features.insert(*text);
          else if (text->consume_front("-"))
            features.erase(*text);
        }
    if (features.contains("avx512vnni") || features.contains("avxvnni"))
      return std::string("vnni");
    if (features.contains("avx512f") && features.contains("avx512bw"))
      return std::string("avx512");
    if (features.contains("v"))
      return std::string("rvv");
    StringRef triple = getString("mtriple").value_or("");
    bool arm = triple.starts_with("aarch64") || triple.starts_with("arm") ||
               triple.starts_with("thumb");
    if (arm && features.contains("dotprod"))
      return std::string("dotprod");
    if (triple.starts_with("aarch64") || (arm && features.contains("neon")))
      return std::string("asimd");
    return std::string("llvm");
  }
  if (kind == "hexagon" || kind == "c")
    return kind;
  if (kind == "cuda") {
    StringRef arch = getString("arch").value_or("");
    unsigned sm = 0;
    if (arch.consume_front("sm_") && !arch.getAsInteger(10, sm) && sm >= 75)
      return std::string("cuda-tensorcore");
    return std::string("cuda");
  }
  if (kind == "rocm" || kind == "vulkan" || kind == "metal" ||
      kind == "opencl" || kind == "webgpu")
    return std::string("cuda");
  error = "MetaSchedule does not tune for target kind '" + kind +
          "' (it tunes llvm, cuda and the other GPU kinds, hexagon and c)";
  return failure();
}
