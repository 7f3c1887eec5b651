//===- Signatures.cpp - element types and function signatures -----------===//
//
// The runtime's description of a compiled function (FunctionInfo: its
// arguments' element types, shapes, strides and size bounds), printed for
// messages and serialized into the `__tir_metadata` table an exported
// library carries.
//
//===----------------------------------------------------------------------===//

#include "Format.h"
#include "TensorIR/Runtime/Runtime.h"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <sstream>

using namespace mlir::tir::runtime;
using detail::shapeStr;

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
  case Float8E4M3FN:
    return "float8_e4m3fn";
  case Float8E5M2:
    return "float8_e5m2";
  case Bool:
    return "bool";
  }
  return "unknown";
}

std::optional<DataType> DataType::parse(const std::string &name) {
  if (name == "bool")
    return DataType{Bool, 1};
  if (name == "float8_e4m3fn")
    return DataType{Float8E4M3FN, 8};
  if (name == "float8_e5m2")
    return DataType{Float8E5M2, 8};
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

std::string ArgInfo::typeStr() const {
  return isBuffer ? dtype.str() + shapeStr(shape) : dtype.str();
}

std::string FunctionInfo::str() const {
  std::string s = name + "(";
  for (size_t i = 0; i < args.size(); ++i) {
    if (i)
      s += ", ";
    s += args[i].name + ": " + args[i].typeStr();
    if (args[i].result)
      s += " (result)";
    else if (args[i].written)
      s += " (written)";
  }
  return s + ")";
}

/// Free text as one token of the signature table: whitespace and '%' as
/// %XX, "-" for the empty text.
static std::string encodeToken(const std::string &text) {
  if (text.empty())
    return "-";
  std::string t;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == '%') {
      char hex[4];
      std::snprintf(hex, sizeof(hex), "%%%02X", static_cast<unsigned char>(c));
      t += hex;
    } else {
      t += c;
    }
  }
  return t;
}

static std::string decodeToken(const std::string &token) {
  if (token == "-")
    return "";
  std::string t;
  for (size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '%' && i + 2 < token.size() &&
        std::isxdigit(static_cast<unsigned char>(token[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(token[i + 2]))) {
      t += static_cast<char>(std::stoi(token.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      t += token[i];
    }
  }
  return t;
}

std::string
mlir::tir::runtime::serializeSignatures(const std::vector<FunctionInfo> &fns) {
  // tir-signatures 7
  // func <name> <nargs> <tuple result: 0 or 1 (version 5)> <nesting: "-"
  //      or the results' nesting, "[0,[1,2]]" (version 6)> <interface: "-"
  //      or how the arguments and results are values (version 7)>
  // buffer <name> <dtype> <written> <rank> <dims...> <nstrides> <strides...>
  //        <nbounds> (<kind> <dim> <constant> <nterms> (<coeff> <arg>
  //        <dim>)... <where>)...
  // scalar <name> <dtype> <nbounds> (as for buffers)...
  // where a bound's <kind> is 0 (at least), 1 (non-negative) or 2 (equal;
  // version 3; on a scalar, version 7), and <written> is 0, 1, or 2 for a
  // result the caller allocates (version 4).
  std::ostringstream os;
  os << "tir-signatures 7\n";
  for (const FunctionInfo &f : fns) {
    os << "func " << f.name << " " << f.args.size() << " "
       << (f.tupleResult ? 1 : 0) << " "
       << (f.resultNesting.empty() ? std::string("-")
                                   : encodeToken(f.resultNesting))
       << " " << encodeToken(f.interface) << "\n";
    for (const ArgInfo &a : f.args) {
      auto writeBounds = [&] {
        os << " " << a.bounds.size();
        for (const SizeBound &b : a.bounds) {
          os << " " << int(b.kind) << " " << b.dim << " " << b.constant << " "
             << b.terms.size();
          for (const SizeTerm &t : b.terms)
            os << " " << t.coeff << " " << t.arg << " " << t.dim;
          os << " " << encodeToken(b.where);
        }
        os << "\n";
      };
      if (!a.isBuffer) {
        os << "scalar " << encodeToken(a.name) << " " << a.dtype.str();
        writeBounds();
        continue;
      }
      os << "buffer " << encodeToken(a.name) << " " << a.dtype.str() << " "
         << (a.result    ? 2
             : a.written ? 1
                         : 0)
         << " " << a.shape.size();
      for (int64_t d : a.shape)
        os << " " << d;
      os << " " << a.strides.size();
      for (int64_t s : a.strides)
        os << " " << s;
      writeBounds();
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
  if (!(is >> word >> version) || word != "tir-signatures" || version < 1 ||
      version > 7) {
    error = "not a tir module signature table (version 1 to 7)";
    return false;
  }
  auto bad = [&](const std::string &what) {
    error = "malformed signature table: " + what;
    return false;
  };
  // Counts come from the file: bound them before sizing anything.
  constexpr size_t kMaxCount = 1 << 16;
  auto readBounds = [&](ArgInfo &a, size_t nargs) {
    size_t nbounds;
    if (!(is >> nbounds) || nbounds > kMaxCount)
      return bad("size bounds of " + a.name);
    for (size_t b = 0; b < nbounds; ++b) {
      SizeBound bound;
      int kind;
      size_t nterms;
      if (!(is >> kind >> bound.dim >> bound.constant >> nterms) ||
          (kind != SizeBound::AtLeast && kind != SizeBound::NonNegative &&
           (kind != SizeBound::Equal || version < 3)) ||
          (a.isBuffer ? bound.dim >= a.shape.size()
                      : kind != SizeBound::NonNegative &&
                            (kind != SizeBound::Equal || version < 7)) ||
          nterms > kMaxCount)
        return bad("size bound of " + a.name);
      bound.kind = static_cast<SizeBound::Kind>(kind);
      bound.terms.resize(nterms);
      for (SizeTerm &t : bound.terms)
        if (!(is >> t.coeff >> t.arg >> t.dim) || t.arg >= nargs || t.dim < -1)
          return bad("size bound of " + a.name);
      if (!(is >> bound.where))
        return bad("size bound of " + a.name);
      bound.where = decodeToken(bound.where);
      a.bounds.push_back(std::move(bound));
    }
    return true;
  };
  while (is >> word) {
    if (word != "func")
      return bad("expected 'func', got '" + word + "'");
    FunctionInfo f;
    size_t nargs;
    int tuple = 0;
    std::string nesting = "-", interface = "-";
    if (!(is >> f.name >> nargs) || nargs > kMaxCount ||
        (version >= 5 && (!(is >> tuple) || tuple < 0 || tuple > 1)) ||
        (version >= 6 && !(is >> nesting)) ||
        (version >= 7 && !(is >> interface)))
      return bad("function header");
    f.interface = decodeToken(interface);
    f.tupleResult = tuple == 1;
    if (nesting != "-") {
      f.resultNesting = decodeToken(nesting);
      if (f.resultNesting.find_first_not_of("[],-0123456789") !=
          std::string::npos)
        return bad("result nesting of " + f.name);
    }
    for (size_t i = 0; i < nargs; ++i) {
      ArgInfo a;
      std::string kind, dtype;
      if (!(is >> kind >> a.name >> dtype))
        return bad("argument of " + f.name);
      // (Names are tokens: a scalar named by a form, "n * 2", since
      // version 7.)
      a.name = decodeToken(a.name);
      auto parsed = DataType::parse(dtype);
      if (!parsed)
        return bad("element type '" + dtype + "'");
      a.dtype = *parsed;
      a.isBuffer = kind == "buffer";
      if (a.isBuffer) {
        int written;
        size_t rank, nstrides;
        if (!(is >> written >> rank) || rank > kMaxCount || written < 0 ||
            written > (version >= 4 ? 2 : 1))
          return bad("buffer " + a.name);
        a.written = written != 0;
        a.result = written == 2;
        a.shape.resize(rank);
        for (int64_t &d : a.shape)
          if (!(is >> d) || d < -1)
            return bad("shape of " + a.name);
        if (!(is >> nstrides) || (nstrides != 0 && nstrides != rank))
          return bad("strides of " + a.name);
        a.strides.resize(nstrides);
        for (int64_t &s : a.strides)
          if (!(is >> s))
            return bad("strides of " + a.name);
      } else if (kind != "scalar") {
        return bad("argument kind '" + kind + "'");
      }
      if (version >= 2 && !readBounds(a, nargs))
        return false;
      f.args.push_back(std::move(a));
    }
    // Terms name arguments of the right kind and rank.
    for (const ArgInfo &a : f.args)
      for (const SizeBound &b : a.bounds)
        for (const SizeTerm &t : b.terms) {
          const ArgInfo &of = f.args[t.arg];
          if (t.dim < 0 ? of.isBuffer
                        : !of.isBuffer ||
                              static_cast<size_t>(t.dim) >= of.shape.size())
            return bad("size bound of " + a.name + " names argument " +
                       std::to_string(t.arg) + " wrongly");
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
