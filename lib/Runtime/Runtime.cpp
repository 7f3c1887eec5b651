//===- Runtime.cpp - call compiled tir functions with buffers -------------===//

#include "TensorIR/Runtime/Runtime.h"

#include <dlfcn.h>

#include <cstring>
#include <sstream>

using namespace mlir::tir::runtime;

//===----------------------------------------------------------------------===//
// Types and signatures
//===----------------------------------------------------------------------===//

std::string DataType::str() const {
  switch (code) {
  case Int:
    return "int" + std::to_string(bits);
  case UInt:
    return "uint" + std::to_string(bits);
  case Float:
    return "float" + std::to_string(bits);
  case BFloat:
    return "bfloat" + std::to_string(bits);
  case Bool:
    return "bool";
  }
  return "unknown";
}

std::optional<DataType> DataType::parse(const std::string &name) {
  if (name == "bool")
    return DataType{Bool, 1};
  struct Prefix {
    const char *text;
    Code code;
  };
  // Longest prefixes first ("uint" before "int", "bfloat" before "float").
  for (Prefix p : {Prefix{"bfloat", BFloat}, Prefix{"uint", UInt},
                   Prefix{"int", Int}, Prefix{"float", Float}}) {
    size_t len = std::strlen(p.text);
    if (name.compare(0, len, p.text) != 0)
      continue;
    std::string digits = name.substr(len);
    if (digits.empty() ||
        digits.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    if (digits.size() > 2)
      return std::nullopt;
    int bits = std::atoi(digits.c_str());
    bool ok = p.code == Float ? (bits == 16 || bits == 32 || bits == 64)
              : p.code == BFloat
                  ? bits == 16
                  : (bits == 8 || bits == 16 || bits == 32 || bits == 64);
    if (!ok)
      return std::nullopt;
    return DataType{p.code, static_cast<uint8_t>(bits)};
  }
  return std::nullopt;
}

static std::string shapeStr(const std::vector<int64_t> &dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i)
      s += ", ";
    s += dims[i] < 0 ? "?" : std::to_string(dims[i]);
  }
  return s + "]";
}

std::string ArgInfo::typeStr() const {
  return isBuffer ? dtype.str() + shapeStr(shape) : dtype.str();
}

std::string FunctionInfo::str() const {
  std::string s = name + "(";
  for (size_t i = 0; i < args.size(); ++i) {
    if (i)
      s += ", ";
    s += args[i].name + ": " + args[i].typeStr();
    if (args[i].written)
      s += " (written)";
  }
  return s + ")";
}

std::string
mlir::tir::runtime::serializeSignatures(const std::vector<FunctionInfo> &fns) {
  // tir-signatures 1
  // func <name> <nargs>
  // buffer <name> <dtype> <written> <rank> <dims...> <nstrides> <strides...>
  // scalar <name> <dtype>
  std::ostringstream os;
  os << "tir-signatures 1\n";
  for (const FunctionInfo &f : fns) {
    os << "func " << f.name << " " << f.args.size() << "\n";
    for (const ArgInfo &a : f.args) {
      if (!a.isBuffer) {
        os << "scalar " << a.name << " " << a.dtype.str() << "\n";
        continue;
      }
      os << "buffer " << a.name << " " << a.dtype.str() << " "
         << (a.written ? 1 : 0) << " " << a.shape.size();
      for (int64_t d : a.shape)
        os << " " << d;
      os << " " << a.strides.size();
      for (int64_t s : a.strides)
        os << " " << s;
      os << "\n";
    }
  }
  return os.str();
}

bool mlir::tir::runtime::parseSignatures(const std::string &text,
                                         std::vector<FunctionInfo> &functions,
                                         std::string &error) {
  std::istringstream is(text);
  std::string word;
  int version = 0;
  if (!(is >> word >> version) || word != "tir-signatures" || version != 1) {
    error = "not a tir module signature table (version 1)";
    return false;
  }
  auto bad = [&](const std::string &what) {
    error = "malformed signature table: " + what;
    return false;
  };
  while (is >> word) {
    if (word != "func")
      return bad("expected 'func', got '" + word + "'");
    FunctionInfo f;
    size_t nargs;
    if (!(is >> f.name >> nargs))
      return bad("function header");
    for (size_t i = 0; i < nargs; ++i) {
      ArgInfo a;
      std::string kind, dtype;
      if (!(is >> kind >> a.name >> dtype))
        return bad("argument of " + f.name);
      auto parsed = DataType::parse(dtype);
      if (!parsed)
        return bad("element type '" + dtype + "'");
      a.dtype = *parsed;
      a.isBuffer = kind == "buffer";
      if (a.isBuffer) {
        int written;
        size_t rank, nstrides;
        if (!(is >> written >> rank))
          return bad("buffer " + a.name);
        a.written = written != 0;
        a.shape.resize(rank);
        for (int64_t &d : a.shape)
          if (!(is >> d))
            return bad("shape of " + a.name);
        if (!(is >> nstrides))
          return bad("strides of " + a.name);
        a.strides.resize(nstrides);
        for (int64_t &s : a.strides)
          if (!(is >> s))
            return bad("strides of " + a.name);
      } else if (kind != "scalar") {
        return bad("argument kind '" + kind + "'");
      }
      f.args.push_back(std::move(a));
    }
    functions.push_back(std::move(f));
  }
  return true;
}

std::vector<int64_t>
mlir::tir::runtime::contiguousStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t running = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = running;
    running *= shape[i];
  }
  return strides;
}

std::string mlir::tir::runtime::packedSymbol(const std::string &function) {
  return "__tir_packed_" + function;
}

//===----------------------------------------------------------------------===//
// Modules and calls
//===----------------------------------------------------------------------===//

Module::Module(std::vector<FunctionInfo> functions, Lookup lookup,
               std::shared_ptr<void> owner)
    : signatures(std::move(functions)), lookupSymbol(std::move(lookup)),
      owner(std::move(owner)) {}

std::unique_ptr<Module> Module::load(const std::string &path,
                                     std::string &error) {
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    error = "cannot load '" + path + "': " + dlerror();
    return nullptr;
  }
  std::shared_ptr<void> owner(handle, [](void *h) { dlclose(h); });
  auto *metadata = static_cast<const char *>(dlsym(handle, kMetadataSymbol));
  if (!metadata) {
    error = "'" + path + "' is not a library exported by tir (it has no " +
            kMetadataSymbol + " symbol)";
    return nullptr;
  }
  std::vector<FunctionInfo> functions;
  if (!parseSignatures(metadata, functions, error)) {
    error = "'" + path + "': " + error;
    return nullptr;
  }
  return std::make_unique<Module>(
      std::move(functions),
      [handle](const std::string &symbol) {
        return dlsym(handle, symbol.c_str());
      },
      std::move(owner));
}

const FunctionInfo *Module::find(const std::string &name) const {
  for (const FunctionInfo &f : signatures)
    if (f.name == name)
      return &f;
  return nullptr;
}

bool Module::check(const FunctionInfo &info, const std::vector<Arg> &args,
                   std::string &error) const {
  if (args.size() != info.args.size()) {
    error = "'" + info.name + "' takes " + std::to_string(info.args.size()) +
            " arguments, got " + std::to_string(args.size()) + "; it is " +
            info.str();
    return false;
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const ArgInfo &expected = info.args[i];
    const Arg &given = args[i];
    std::string where = "argument " + std::to_string(i) + " ('" +
                        expected.name + "') of '" + info.name + "': ";
    if (!expected.isBuffer) {
      if (given.kind == Arg::Buffer) {
        error = where + "expected a scalar " + expected.dtype.str() +
                ", got a buffer";
        return false;
      }
      bool floatParam = expected.dtype.code == DataType::Float ||
                        expected.dtype.code == DataType::BFloat;
      if (given.kind == Arg::Float && !floatParam) {
        error = where + "expected an integer (" + expected.dtype.str() +
                "), got a float";
        return false;
      }
      continue;
    }
    if (given.kind != Arg::Buffer) {
      error =
          where + "expected a " + expected.typeStr() + " buffer, got a scalar";
      return false;
    }
    if (given.dtype != expected.dtype) {
      error = where + "expected element type " + expected.dtype.str() +
              ", got " + given.dtype.str();
      return false;
    }
    if (given.shape.size() != expected.shape.size()) {
      error = where + "expected rank " + std::to_string(expected.shape.size()) +
              " " + shapeStr(expected.shape) + ", got rank " +
              std::to_string(given.shape.size()) + " " + shapeStr(given.shape);
      return false;
    }
    int64_t elements = 1;
    for (size_t d = 0; d < given.shape.size(); ++d) {
      if (given.shape[d] < 0 ||
          (expected.shape[d] >= 0 && expected.shape[d] != given.shape[d])) {
        error = where + "expected shape " + shapeStr(expected.shape) +
                ", got " + shapeStr(given.shape);
        return false;
      }
      elements *= given.shape[d];
    }
    std::vector<int64_t> givenStrides =
        given.strides.empty() ? contiguousStrides(given.shape) : given.strides;
    if (givenStrides.size() != given.shape.size()) {
      error = where + "has " + std::to_string(givenStrides.size()) +
              " strides for " + std::to_string(given.shape.size()) +
              " dimensions";
      return false;
    }
    std::vector<int64_t> wanted = expected.strides.empty()
                                      ? contiguousStrides(given.shape)
                                      : expected.strides;
    for (size_t d = 0; d < given.shape.size(); ++d) {
      // A dimension of size 1 is never stepped along: any stride will do.
      if (given.shape[d] == 1 || wanted[d] < 0)
        continue;
      if (wanted[d] != givenStrides[d]) {
        error = where + "expected strides " + shapeStr(wanted) +
                " (in elements), got " + shapeStr(givenStrides) +
                (expected.strides.empty() ? "; the function takes row-major "
                                            "contiguous buffers"
                                          : "");
        return false;
      }
    }
    if (!given.data && elements != 0) {
      error = where + "has no data";
      return false;
    }
  }
  return checkNoOverlap(info, args, error);
}

/// The bytes a buffer argument spans, [first, last).
static std::pair<uintptr_t, uintptr_t> byteSpan(const Arg &arg) {
  std::vector<int64_t> strides =
      arg.strides.empty() ? contiguousStrides(arg.shape) : arg.strides;
  intptr_t low = 0, high = 0;
  for (size_t d = 0; d < arg.shape.size(); ++d) {
    if (arg.shape[d] == 0)
      return {0, 0};
    int64_t reach = strides[d] * (arg.shape[d] - 1);
    (reach < 0 ? low : high) += reach;
  }
  auto base = reinterpret_cast<uintptr_t>(arg.data);
  size_t bytes = arg.dtype.bytes();
  return {base + low * static_cast<intptr_t>(bytes),
          base + high * static_cast<intptr_t>(bytes) + bytes};
}

bool Module::checkNoOverlap(const FunctionInfo &info,
                            const std::vector<Arg> &args,
                            std::string &error) const {
  // Compiled code assumes that a buffer it writes shares no memory with any
  // other buffer argument (as TVM does); read-only buffers may overlap.
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].kind != Arg::Buffer)
      continue;
    auto [lo1, hi1] = byteSpan(args[i]);
    for (size_t j = i + 1; j < args.size(); ++j) {
      if (args[j].kind != Arg::Buffer ||
          (!info.args[i].written && !info.args[j].written))
        continue;
      auto [lo2, hi2] = byteSpan(args[j]);
      if (lo1 < hi2 && lo2 < hi1) {
        error = "arguments " + std::to_string(i) + " ('" + info.args[i].name +
                "') and " + std::to_string(j) + " ('" + info.args[j].name +
                "') of '" + info.name +
                "' overlap in memory; a buffer the function writes must not "
                "share memory with another argument";
        return false;
      }
    }
  }
  return true;
}

/// Storage for one scalar argument, typed as the function's parameter.
static void storeScalar(const ArgInfo &info, const Arg &arg, void *slot) {
  double f = arg.kind == Arg::Float ? arg.floatValue
                                    : static_cast<double>(arg.intValue);
  int64_t i = arg.intValue;
  switch (info.dtype.code) {
  case DataType::Float:
    if (info.dtype.bits == 64)
      *static_cast<double *>(slot) = f;
    else if (info.dtype.bits == 32)
      *static_cast<float *>(slot) = static_cast<float>(f);
    else
      *static_cast<uint16_t *>(slot) = 0; // Rejected by the compiler.
    return;
  case DataType::BFloat:
    *static_cast<uint16_t *>(slot) = 0; // Rejected by the compiler.
    return;
  default:
    switch (info.dtype.bits) {
    case 1:
    case 8:
      *static_cast<int8_t *>(slot) = static_cast<int8_t>(i);
      return;
    case 16:
      *static_cast<int16_t *>(slot) = static_cast<int16_t>(i);
      return;
    case 32:
      *static_cast<int32_t *>(slot) = static_cast<int32_t>(i);
      return;
    default:
      *static_cast<int64_t *>(slot) = i;
      return;
    }
  }
}

bool Module::call(const std::string &name, const std::vector<Arg> &args,
                  std::string &error) const {
  const FunctionInfo *info = find(name);
  if (!info) {
    error = "no function named '" + name + "' in the module";
    if (!signatures.empty()) {
      error += "; it has";
      for (const FunctionInfo &f : signatures)
        error += " '" + f.name + "'";
    }
    return false;
  }
  if (!check(*info, args, error))
    return false;
  auto *fn =
      reinterpret_cast<void (*)(void **)>(lookupSymbol(packedSymbol(name)));
  if (!fn) {
    error = "the module has no entry point for '" + name + "'";
    return false;
  }
  // One memref descriptor ({allocated, aligned, offset, sizes, strides}) or
  // scalar slot per argument.
  std::vector<std::vector<int64_t>> storage(args.size());
  std::vector<void *> pointers(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const Arg &arg = args[i];
    std::vector<int64_t> &slot = storage[i];
    if (arg.kind != Arg::Buffer) {
      slot.assign(1, 0);
      storeScalar(info->args[i], arg, slot.data());
    } else {
      size_t rank = arg.shape.size();
      slot.resize(3 + 2 * rank);
      slot[0] = reinterpret_cast<int64_t>(arg.data);
      slot[1] = reinterpret_cast<int64_t>(arg.data);
      slot[2] = 0;
      std::vector<int64_t> strides =
          arg.strides.empty() ? contiguousStrides(arg.shape) : arg.strides;
      for (size_t d = 0; d < rank; ++d) {
        slot[3 + d] = arg.shape[d];
        slot[3 + rank + d] = strides[d];
      }
    }
    pointers[i] = slot.data();
  }
  fn(pointers.data());
  return true;
}

bool mlir::tir::runtime::setNumThreads(int threads) {
  for (const char *lib : {"libomp.so.5", "libomp.so"}) {
    void *handle = dlopen(lib, RTLD_NOW | RTLD_NOLOAD);
    if (!handle)
      continue;
    auto *set =
        reinterpret_cast<void (*)(int)>(dlsym(handle, "omp_set_num_threads"));
    dlclose(handle);
    if (set) {
      set(threads);
      return true;
    }
  }
  return false;
}
