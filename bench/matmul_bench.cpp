//===- matmul_bench.cpp - 1024^3 fp32 matmul: tir beside OpenBLAS ---------===//
//
// Builds tir matmul kernels with tir's compiler (JIT, native CPU), checks
// each against OpenBLAS's cblas_sgemm on the same random inputs, then times
// them at 1 and 2 threads (OpenBLAS measured in the same run) and prints a
// Markdown table of GFLOP/s. The unscheduled kernel is timed at 1 thread
// only (it has no parallel loop) and with --naive-repeat calls.
//
//   tir-bench-matmul --naive FILE [--kernel LABEL=FILE]... [--repeat N]
//                    [--naive-repeat N]
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Compiler/Compiler.h"
#include "TensorIR/Runtime/Runtime.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/TargetParser/Host.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace mlir;
namespace rt = mlir::tir::runtime;

static constexpr int64_t N = 1024;

static std::unique_ptr<rt::Module> build(const std::string &path) {
  if (path.empty())
    return nullptr;
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    return nullptr;
  }
  std::stringstream text;
  text << in.rdbuf();
  DialectRegistry registry;
  tir::registerCompilerDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text.str(), ParserConfig(&context), path);
  if (!module)
    return nullptr;
  auto compiled = tir::compileModule(*module, tir::CompileOptions());
  return failed(compiled) ? nullptr : std::move(*compiled);
}

struct Timing {
  double minMs, medianMs;
};

static Timing timeIt(const std::function<void()> &fn, int repeat, bool settle) {
  // Let the threads of whatever ran before go idle first.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  fn(); // warm-up
  std::vector<double> ms;
  for (int i = 0; i < repeat; ++i) {
    auto start = std::chrono::steady_clock::now();
    fn();
    auto stop = std::chrono::steady_clock::now();
    ms.push_back(
        std::chrono::duration<double, std::milli>(stop - start).count());
    // OpenBLAS's worker threads spin for a while after a parallel call and
    // would steal the other core from whatever runs next.
    if (settle)
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  std::sort(ms.begin(), ms.end());
  return {ms.front(), ms[ms.size() / 2]};
}

static double gflops(double ms) { return 2.0 * N * N * N / (ms * 1e6); }

static std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0)
      return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

int main(int argc, char **argv) {
  std::string naivePath;
  std::vector<std::pair<std::string, std::string>> kernelPaths;
  int repeat = 10, naiveRepeat = 1;
  // The host's FMA peak at 1 and 2 threads (bench/run.sh measures it with
  // tir-fma-peak): each row's share of it.
  double peak[3] = {0, 0, 0};
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--fma-peak") {
      if (std::sscanf(value.c_str(), "%lf,%lf", &peak[1], &peak[2]) != 2) {
        std::fprintf(stderr, "--fma-peak takes GFLOP/s at 1 and 2 threads, "
                             "as 160.5,310.2\n");
        return 2;
      }
    } else if (flag == "--repeat") {
      repeat = std::max(1, std::atoi(value.c_str()));
    } else if (flag == "--naive-repeat") {
      naiveRepeat = std::max(1, std::atoi(value.c_str()));
    } else if (flag == "--naive") {
      naivePath = value;
    } else if (flag == "--kernel" && value.find('=') != std::string::npos) {
      kernelPaths.push_back({value.substr(0, value.find('=')),
                             value.substr(value.find('=') + 1)});
    } else {
      std::fprintf(stderr, "unknown argument %s\n", flag.c_str());
      return 2;
    }
  }
  if (naivePath.empty()) {
    std::fprintf(stderr,
                 "usage: %s --naive FILE [--kernel LABEL=FILE]... "
                 "[--repeat N] [--naive-repeat N] [--fma-peak P1,P2]\n",
                 argv[0]);
    return 2;
  }
  std::unique_ptr<rt::Module> naive = build(naivePath);
  if (!naive)
    return 1;
  std::vector<std::pair<std::string, std::unique_ptr<rt::Module>>> kernels;
  for (auto &[label, path] : kernelPaths) {
    kernels.push_back({label, build(path)});
    if (!kernels.back().second)
      return 1;
  }

  std::vector<float> a(N * N), b(N * N), c(N * N), ref(N * N);
  std::mt19937 rng(0);
  std::uniform_real_distribution<float> dist(-1, 1);
  for (float &x : a)
    x = dist(rng);
  for (float &x : b)
    x = dist(rng);
  rt::DataType f32{rt::DataType::Float, 32};
  std::vector<rt::Arg> args = {rt::Arg::buffer(a.data(), f32, {N, N}),
                               rt::Arg::buffer(b.data(), f32, {N, N}),
                               rt::Arg::buffer(c.data(), f32, {N, N})};
  auto run = [&](rt::Module &m) {
    std::string error;
    if (!m.call("matmul", args, error)) {
      std::fprintf(stderr, "%s\n", error.c_str());
      std::exit(1);
    }
  };
  auto sgemm = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.0f,
                a.data(), N, b.data(), N, 0.0f, ref.data(), N);
  };

  // Correctness first: every tir kernel against OpenBLAS.
  sgemm();
  std::vector<std::pair<std::string, rt::Module *>> all = {
      {"unscheduled", naive.get()}};
  for (auto &[label, module] : kernels)
    all.push_back({label, module.get()});
  for (auto [name, module] : all) {
    std::fill(c.begin(), c.end(), 0.0f);
    run(*module);
    double maxErr = 0;
    for (int64_t i = 0; i < N * N; ++i)
      maxErr = std::max(maxErr, double(std::fabs(c[i] - ref[i])));
    std::printf("check %s vs cblas_sgemm: max abs difference %.2e\n",
                name.c_str(), maxErr);
    if (maxErr > 1e-2) {
      std::fprintf(stderr, "%s is wrong\n", name.c_str());
      return 1;
    }
  }

  std::printf("\nCPU: %s (LLVM: %s), %u hardware threads\n", cpuModel().c_str(),
              llvm::sys::getHostCPUName().str().c_str(),
              std::thread::hardware_concurrency());
  std::printf("OpenBLAS %s, kernels for %s\n", openblas_get_config(),
              openblas_get_corename());
  std::printf("1024x1024x1024 fp32 matmul; min / median of %d runs (naive: "
              "%d)\n\n",
              repeat, naiveRepeat);
  if (peak[1] > 0)
    std::printf("FMA peak (tir-fma-peak): %.1f GFLOP/s on 1 thread, %.1f on "
                "2\n\n",
                peak[1], peak[2]);
  std::printf("| kernel | threads | min ms | median ms | GFLOP/s (min) | "
              "vs OpenBLAS |%s\n",
              peak[1] > 0 ? " of FMA peak |" : "");
  std::printf("|---|---|---|---|---|---|%s\n", peak[1] > 0 ? "---|" : "");
  for (int threads : {1, 2}) {
    openblas_set_num_threads(threads);
    rt::setNumThreads(threads);
    Timing blas = timeIt(sgemm, repeat, threads > 1);
    auto row = [&](const char *name, Timing t) {
      std::printf("| %s | %d | %.2f | %.2f | %.1f | %.2fx |", name, threads,
                  t.minMs, t.medianMs, gflops(t.minMs), blas.minMs / t.minMs);
      if (peak[threads] > 0)
        std::printf(" %.0f%% |", 100 * gflops(t.minMs) / peak[threads]);
      std::printf("\n");
    };
    row("OpenBLAS cblas_sgemm", blas);
    for (auto &[label, module] : kernels) {
      rt::Module *m = module.get();
      row(label.c_str(), timeIt([&] { run(*m); }, repeat, false));
    }
    if (threads == 1)
      row("tir unscheduled", timeIt([&] { run(*naive); }, naiveRepeat, false));
  }
  return 0;
}
