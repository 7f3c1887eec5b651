//===- tir-exec.cpp - run an exported tir library with the runtime only ---===//
//
//   tir-exec vadd_cuda.so --list
//   tir-exec vadd_cuda.so --entry vadd --reference vadd_cpu.so --repeat 100
//
// Loads a library exported by tir (for the CPU or for CUDA GPUs) and calls
// one of its functions on seeded random buffers (floats in [-1, 1),
// integers in [-8, 8]; those it writes too, so that an element it fails to
// write keeps a value the reference does not give). With --reference (the
// same function built for the CPU), both run once on the same inputs and
// every buffer the function writes is compared (relative error, the norm
// of the difference over the norm of the reference): over --tolerance, the
// exit status is 1. With --repeat, the mean time of a call after that
// (device events on a GPU). Buffers of 32- or 64-bit floats and 8- to
// 64-bit integers.
//
// It links only the runtime library (no LLVM, MLIR or compiler): it runs
// where the compiler does not, as on a GPU machine. Scalars come from
// --arg NAME=VALUE; buffers need static shapes.
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Runtime/CUDA.h"
#include "TensorIR/Runtime/Runtime.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace rt = mlir::tir::runtime;

namespace {

struct Options {
  std::string library, entry, reference;
  std::map<std::string, std::string> scalars;
  int repeat = 0;
  unsigned seed = 0;
  double tolerance = 1e-5;
  int device = 0;
  bool list = false;
};

[[noreturn]] void fail(const std::string &message) {
  std::fprintf(stderr, "tir-exec: %s\n", message.c_str());
  std::exit(2);
}

Options parse(int argc, char **argv) {
  Options o;
  auto value = [&](int &i) -> std::string {
    if (i + 1 >= argc)
      fail(std::string(argv[i]) + " needs a value");
    return argv[++i];
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--entry")
      o.entry = value(i);
    else if (a == "--reference")
      o.reference = value(i);
    else if (a == "--repeat")
      o.repeat = std::atoi(value(i).c_str());
    else if (a == "--seed")
      o.seed = std::strtoul(value(i).c_str(), nullptr, 10);
    else if (a == "--tolerance")
      o.tolerance = std::atof(value(i).c_str());
    else if (a == "--device")
      o.device = std::atoi(value(i).c_str());
    else if (a == "--list")
      o.list = true;
    else if (a == "--arg") {
      std::string kv = value(i);
      size_t eq = kv.find('=');
      if (eq == std::string::npos)
        fail("--arg takes NAME=VALUE, got '" + kv + "'");
      o.scalars[kv.substr(0, eq)] = kv.substr(eq + 1);
    } else if (a == "--help" || a == "-h") {
      std::printf("usage: tir-exec LIBRARY.so [--list] [--entry NAME] "
                  "[--reference CPU.so] [--repeat N] [--seed S] "
                  "[--tolerance T] [--device N] [--arg NAME=VALUE]...\n");
      std::exit(0);
    } else if (!a.empty() && a[0] == '-')
      fail("unknown option '" + a + "'");
    else if (o.library.empty())
      o.library = a;
    else
      fail("one library, got '" + o.library + "' and '" + a + "'");
  }
  if (o.library.empty())
    fail("no library given (tir-exec LIBRARY.so ...; --help)");
  return o;
}

std::unique_ptr<rt::Module> load(const std::string &path) {
  std::string error;
  std::unique_ptr<rt::Module> m = rt::Module::load(path, error);
  if (!m)
    fail(error);
  return m;
}

/// One argument's host data (buffers), or its scalar.
struct Value {
  std::vector<unsigned char> bytes;
  rt::Arg scalar;
};

int64_t elements(const rt::ArgInfo &info) {
  bool isFloat = info.dtype.code == rt::DataType::Float;
  bool isInt = info.dtype.code == rt::DataType::Int ||
               info.dtype.code == rt::DataType::UInt;
  if (!(isFloat && (info.dtype.bits == 32 || info.dtype.bits == 64)) &&
      !(isInt && info.dtype.bits >= 8))
    fail("buffer '" + info.name + "' holds " + info.dtype.str() +
         "; tir-exec handles 32/64-bit floats and 8- to 64-bit integers");
  int64_t n = 1;
  for (int64_t d : info.shape) {
    if (d < 0)
      fail("buffer '" + info.name +
           "' has a dynamic shape; tir-exec runs static shapes");
    n *= d;
  }
  return n;
}

void fill(const rt::ArgInfo &info, std::vector<unsigned char> &bytes,
          std::mt19937 &rng) {
  int64_t n = elements(info);
  size_t size = info.dtype.bytes();
  bytes.assign(n * size, 0);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> integer(-8, 8);
  for (int64_t i = 0; i < n; ++i) {
    unsigned char *p = bytes.data() + i * size;
    bool isFloat = info.dtype.code == rt::DataType::Float;
    double v = real(rng);
    if (isFloat && size == 4) {
      float f = v;
      std::memcpy(p, &f, 4);
    } else if (isFloat && size == 8) {
      std::memcpy(p, &v, 8);
    } else {
      int64_t k = info.dtype.code == rt::DataType::UInt ? std::abs(integer(rng))
                                                        : integer(rng);
      std::memcpy(p, &k, size); // little-endian: the low bytes
    }
  }
}

double toDouble(const rt::ArgInfo &info, const unsigned char *p) {
  size_t size = info.dtype.bytes();
  if (info.dtype.code == rt::DataType::Float) {
    if (size == 4) {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
  uint64_t bits = 0;
  std::memcpy(&bits, p, size); // little-endian: the low bytes
  if (info.dtype.code == rt::DataType::UInt)
    return double(bits);
  // Sign-extend from the element's width.
  unsigned shift = 64 - 8 * size;
  return double(int64_t(bits << shift) >> shift);
}

/// Calls `name` of `module` on copies of `values` where the module runs;
/// the written buffers come back into `values`. Returns the mean seconds of
/// `repeat` timed calls (0 without).
double run(const rt::Module &module, const rt::FunctionInfo &info,
           std::vector<Value> &values, int device, int repeat) {
  bool gpu = module.target() == rt::Device::CUDA;
  std::vector<rt::Arg> args;
  std::vector<void *> deviceData;
  std::string error;
  for (size_t i = 0; i < info.args.size(); ++i) {
    const rt::ArgInfo &a = info.args[i];
    if (!a.isBuffer) {
      args.push_back(values[i].scalar);
      continue;
    }
    void *data = values[i].bytes.data();
    rt::Device where;
    if (gpu) {
      where = {rt::Device::CUDA, device};
      data = rt::cuda::allocate(device, values[i].bytes.size(), error);
      if (!data || !rt::cuda::copy(data, where, values[i].bytes.data(),
                                   rt::Device{}, values[i].bytes.size(), error))
        fail(error);
      deviceData.push_back(data);
    }
    args.push_back(rt::Arg::buffer(data, a.dtype, a.shape, {}, where));
  }
  if (!module.call(info.name, args, error))
    fail(error);
  // The results of the one call, before any timed ones.
  if (gpu) {
    size_t k = 0;
    for (size_t i = 0; i < info.args.size(); ++i) {
      if (!info.args[i].isBuffer)
        continue;
      void *data = deviceData[k++];
      if (info.args[i].written &&
          !rt::cuda::copy(values[i].bytes.data(), rt::Device{}, data,
                          {rt::Device::CUDA, device}, values[i].bytes.size(),
                          error))
        fail(error);
    }
  }
  double seconds = 0;
  if (repeat > 0 && gpu) {
    seconds = module.timeOnGPU(info.name, args, device, repeat, error);
    if (seconds < 0)
      fail(error);
  } else if (repeat > 0) {
    // Timed calls work on copies: the results stay those of one call.
    std::vector<Value> copies = values;
    for (size_t i = 0; i < info.args.size(); ++i)
      if (info.args[i].isBuffer)
        args[i].data = copies[i].bytes.data();
    auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < repeat; ++r)
      module.call(info.name, args, error);
    seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count() /
        repeat;
  }
  for (void *data : deviceData)
    rt::cuda::release(device, data, error);
  return seconds;
}

} // namespace

int main(int argc, char **argv) {
  Options o = parse(argc, argv);
  std::unique_ptr<rt::Module> module = load(o.library);
  if (o.list) {
    std::printf("%s (%s)\n", o.library.c_str(),
                module->target() == rt::Device::CUDA ? "cuda" : "cpu");
    for (const rt::FunctionInfo &f : module->functions())
      std::printf("  %s\n", f.str().c_str());
    return 0;
  }
  const std::vector<rt::FunctionInfo> &functions = module->functions();
  if (o.entry.empty()) {
    if (functions.size() != 1)
      fail("the library has " + std::to_string(functions.size()) +
           " functions; choose one with --entry");
    o.entry = functions.front().name;
  }
  const rt::FunctionInfo *info = module->find(o.entry);
  if (!info)
    fail("no function named '" + o.entry + "' in '" + o.library + "'");

  std::mt19937 rng(o.seed);
  std::vector<Value> values(info->args.size());
  for (size_t i = 0; i < info->args.size(); ++i) {
    const rt::ArgInfo &a = info->args[i];
    if (a.isBuffer) {
      fill(a, values[i].bytes, rng);
      continue;
    }
    auto it = o.scalars.find(a.name);
    if (it == o.scalars.end())
      fail("scalar '" + a.name + "' needs --arg " + a.name + "=VALUE");
    bool isFloat = a.dtype.code == rt::DataType::Float;
    values[i].scalar =
        isFloat ? rt::Arg::scalar(std::atof(it->second.c_str()))
                : rt::Arg::scalar(int64_t(std::atoll(it->second.c_str())));
  }
  std::vector<Value> expected = values;
  double seconds = run(*module, *info, values, o.device, o.repeat);
  std::printf("%s: %s\n", o.entry.c_str(), info->str().c_str());
  int status = 0;
  if (!o.reference.empty()) {
    std::unique_ptr<rt::Module> ref = load(o.reference);
    const rt::FunctionInfo *refInfo = ref->find(o.entry);
    if (!refInfo || refInfo->str() != info->str())
      fail("'" + o.reference + "' has no function " + info->str());
    run(*ref, *refInfo, expected, o.device, 0);
    for (size_t i = 0; i < info->args.size(); ++i) {
      const rt::ArgInfo &a = info->args[i];
      if (!a.isBuffer || !a.written)
        continue;
      size_t size = a.dtype.bytes();
      double diff = 0, norm = 0;
      int64_t differing = 0;
      for (int64_t k = 0, n = elements(a); k < n; ++k) {
        double got = toDouble(a, values[i].bytes.data() + k * size);
        double want = toDouble(a, expected[i].bytes.data() + k * size);
        if (std::isnan(got) && std::isnan(want))
          continue;
        differing += got != want;
        diff += (got - want) * (got - want);
        norm += want * want;
      }
      double rel = std::sqrt(diff) / (norm > 0 ? std::sqrt(norm) : 1);
      bool ok = rel <= o.tolerance; // false for NaN
      std::printf("  %s: relative error %.3g against the reference (%lld "
                  "elements differ): %s\n",
                  a.name.c_str(), rel, (long long)differing,
                  ok ? "ok" : "WRONG");
      status |= ok ? 0 : 1;
    }
  }
  if (o.repeat > 0)
    std::printf("  %.4f ms per call (%d calls, %s)\n", seconds * 1e3, o.repeat,
                module->target() == rt::Device::CUDA ? "device events"
                                                     : "host clock");
  return status;
}
