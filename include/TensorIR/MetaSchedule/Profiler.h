//===- Profiler.h - where tuning time goes ----------------------*- C++ -*-===//
//
// TVM's meta_schedule.Profiler: while a profiler is entered (the current
// one of its thread), named scopes add the seconds they take to it, and
// "Total" the whole time it was entered. Tuning times its phases with it
// (space generation, search, building, measuring, cost-model updates).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_PROFILER_H
#define TENSORIR_METASCHEDULE_PROFILER_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <map>
#include <mutex>
#include <string>

namespace mlir::tir::ms {

class Profiler {
public:
  using Clock = std::chrono::steady_clock;

  /// Makes this profiler the current one of the calling thread (the one
  /// before it comes back at exit) and starts timing "Total".
  void enter();
  /// Adds the time since enter to "Total" and restores the profiler that
  /// was current before.
  void exit();
  /// The calling thread's current profiler, or null.
  static Profiler *current();

  /// Adds `seconds` to scope `name` (safe from several threads).
  void add(llvm::StringRef name, double seconds);
  /// Seconds per scope name.
  std::map<std::string, double> get() const;
  /// The scopes as a table: name, seconds and share of "Total", the
  /// longest first.
  std::string table() const;

  /// Times a scope on the profiler current when it starts (nothing when
  /// there is none): the seconds until `stop`, or until it is destroyed.
  class TimedScope {
  public:
    explicit TimedScope(std::string name);
    ~TimedScope() { stop(); }
    TimedScope(const TimedScope &) = delete;
    TimedScope &operator=(const TimedScope &) = delete;
    void stop();

  private:
    Profiler *profiler;
    std::string name;
    Clock::time_point start;
  };

private:
  mutable std::mutex mutex;
  llvm::StringMap<double> seconds;
  Clock::time_point start;
  Profiler *previous = nullptr;
  bool entered = false;
};

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_PROFILER_H
