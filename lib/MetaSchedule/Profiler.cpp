//===- Profiler.cpp - where tuning time goes ------------------------------===//

#include "TensorIR/MetaSchedule/Profiler.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

using namespace mlir::tir::ms;

static thread_local Profiler *currentProfiler = nullptr;

static double secondsSince(Profiler::Clock::time_point start) {
  return std::chrono::duration<double>(Profiler::Clock::now() - start).count();
}

void Profiler::enter() {
  previous = currentProfiler;
  currentProfiler = this;
  entered = true;
  start = Clock::now();
}

void Profiler::exit() {
  if (!entered)
    return;
  add("Total", secondsSince(start));
  currentProfiler = previous;
  previous = nullptr;
  entered = false;
}

Profiler *Profiler::current() { return currentProfiler; }

void Profiler::add(llvm::StringRef name, double s) {
  std::lock_guard<std::mutex> lock(mutex);
  seconds[name] += s;
}

std::map<std::string, double> Profiler::get() const {
  std::lock_guard<std::mutex> lock(mutex);
  std::map<std::string, double> out;
  for (const auto &entry : seconds)
    out[entry.getKey().str()] = entry.getValue();
  return out;
}

std::string Profiler::table() const {
  std::map<std::string, double> stats = get();
  std::vector<std::pair<std::string, double>> rows(stats.begin(), stats.end());
  llvm::stable_sort(
      rows, [](const auto &a, const auto &b) { return a.second > b.second; });
  double total = stats.count("Total") ? stats["Total"] : 0;
  size_t width = 4;
  for (const auto &row : rows)
    width = std::max(width, row.first.size());
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::left_justify("Name", width) << "  Time (s)  Share\n";
  for (const auto &[name, s] : rows) {
    os << llvm::left_justify(name, width) << "  " << llvm::format("%8.3f", s);
    if (total > 0)
      os << "  " << llvm::format("%5.1f%%", 100 * s / total);
    os << "\n";
  }
  return text;
}

Profiler::TimedScope::TimedScope(std::string name)
    : profiler(Profiler::current()), name(std::move(name)),
      start(Clock::now()) {}

void Profiler::TimedScope::stop() {
  if (!profiler)
    return;
  profiler->add(name, secondsSince(start));
  profiler = nullptr;
}
