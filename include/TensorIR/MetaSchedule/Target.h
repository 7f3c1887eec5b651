//===- Target.h - the target a task is tuned for ----------------*- C++ -*-===//
//
// TVM's Target as MetaSchedule reads it: the kind ("llvm", "cuda", ...)
// and the options (TVM's Target.export(): "num-cores", "mattr",
// "max_threads_per_block", "arch", ...). The rule sets are chosen from it
// and the rules size their tiles and thread counts by it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_TARGET_H
#define TENSORIR_METASCHEDULE_TARGET_H

#include "mlir/Support/LLVM.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace mlir::tir::ms {

class Target {
public:
  /// A target of `kind` with no options.
  explicit Target(std::string kind) : kind(std::move(kind)) {}

  /// The target TVM's export describes: an object with "kind" and the
  /// options; fails with `error` otherwise.
  static FailureOr<Target> fromJSON(const llvm::json::Value &json,
                                    std::string &error);
  llvm::json::Value toJSON() const;

  StringRef getKind() const { return kind; }
  const llvm::json::Object &getOptions() const { return options; }
  /// An integer option ("num-cores", "max_threads_per_block").
  std::optional<int64_t> getInt(StringRef name) const;
  /// A string option ("arch", "mcpu").
  std::optional<StringRef> getString(StringRef name) const;
  /// Whether list option `name` ("mattr", "keys") holds `item`.
  bool listHas(StringRef name, StringRef item) const;

  /// TVM's IsGPUTarget: a GPU kind (cuda, rocm, vulkan, metal, opencl,
  /// webgpu) or a target whose "keys" list "gpu".
  bool isGPU() const;
  /// TVM's GetRuleKindFromTarget: which default rule set tunes for this
  /// target ("llvm", "avx512", "vnni", "asimd", "dotprod", "rvv",
  /// "cuda", "cuda-tensorcore", "hexagon", "c"); fails with `error` for a
  /// kind MetaSchedule does not tune for.
  FailureOr<std::string> getRuleKind(std::string &error) const;

private:
  std::string kind;
  llvm::json::Object options;
};

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_TARGET_H
