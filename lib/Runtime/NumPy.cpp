//===- NumPy.cpp - .npy files and owned arrays ----------------------------===//

#include "TensorIR/Runtime/NumPy.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <vector>

using namespace mlir::tir::runtime;

NDArray::NDArray(DataType dtype, std::vector<int64_t> shape)
    : dtype(dtype), shape(std::move(shape)) {
  bytes.assign(numElements() * dtype.bytes(), 0);
}

int64_t NDArray::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

static float halfToFloat(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exponent = (h >> 10) & 0x1f, mant = h & 0x3ff;
  float value;
  if (exponent == 0)
    value = std::ldexp(static_cast<float>(mant), -24);
  else if (exponent == 31)
    value = mant ? NAN : INFINITY;
  else
    value = std::ldexp(static_cast<float>(mant | 0x400), exponent - 25);
  return sign ? -value : value;
}

static uint16_t floatToHalf(float f) {
  // Round to nearest even through the float bits.
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  int32_t exponent = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffff;
  if (((x >> 23) & 0xff) == 0xff)
    return sign | 0x7c00 | (mant ? 0x200 : 0);
  if (exponent >= 31)
    return sign | 0x7c00;
  if (exponent <= 0) {
    if (exponent < -10)
      return sign;
    mant |= 0x800000;
    uint32_t shift = 14 - exponent;
    uint32_t half = mant >> shift;
    uint32_t rest = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1)))
      ++half;
    return sign | half;
  }
  uint32_t half = (exponent << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half;
  return sign | half;
}

template <typename T> static T load(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T> static void store(uint8_t *p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

/// An 8-bit float (`e4m3`: 4 exponent bits, bias 7, no infinities, NaN
/// all ones; `e5m2`: IEEE-like, bias 15) as a double.
static double float8ToDouble(uint8_t v, bool e4m3) {
  int mantissaBits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
  int exponentMask = e4m3 ? 0xF : 0x1F;
  bool negative = v & 0x80;
  int exponent = (v >> mantissaBits) & exponentMask;
  int mantissa = v & ((1 << mantissaBits) - 1);
  double magnitude;
  if (e4m3 && exponent == 0xF && mantissa == 0x7)
    magnitude = std::numeric_limits<double>::quiet_NaN();
  else if (!e4m3 && exponent == 0x1F)
    magnitude = mantissa ? std::numeric_limits<double>::quiet_NaN()
                         : std::numeric_limits<double>::infinity();
  else if (exponent == 0)
    magnitude = std::ldexp(mantissa, 1 - bias - mantissaBits);
  else
    magnitude = std::ldexp(mantissa + (1 << mantissaBits),
                           exponent - bias - mantissaBits);
  return negative ? -magnitude : magnitude;
}

/// The non-negative finite values of an 8-bit float format, by code.
static std::vector<double> finiteFloat8Values(bool e4m3) {
  std::vector<double> values;
  for (int v = 0; v < 0x80; ++v) {
    double x = float8ToDouble(static_cast<uint8_t>(v), e4m3);
    if (!std::isfinite(x))
      break;
    values.push_back(x);
  }
  return values;
}

/// The nearest 8-bit float to `x` (ties to the even mantissa). Half an ulp
/// or more beyond the largest finite value, e4m3 (no infinities) gives NaN
/// and e5m2 infinity, as ml_dtypes' conversions do.
static uint8_t doubleToFloat8(double x, bool e4m3) {
  uint8_t sign = std::signbit(x) ? 0x80 : 0;
  if (std::isnan(x))
    return e4m3 ? 0x7F : 0x7E;
  // The format's non-negative finite values increase with their codes
  // (0 up to the largest finite one): the nearest by binary search.
  static const std::vector<double> e4m3Values = finiteFloat8Values(true),
                                   e5m2Values = finiteFloat8Values(false);
  const std::vector<double> &values = e4m3 ? e4m3Values : e5m2Values;
  double magnitude = std::fabs(x);
  size_t above = std::lower_bound(values.begin(), values.end(), magnitude) -
                 values.begin();
  uint8_t best;
  if (above == values.size()) {
    best = static_cast<uint8_t>(values.size() - 1);
  } else if (above == 0) {
    best = 0;
  } else {
    double down = magnitude - values[above - 1], up = values[above] - magnitude;
    size_t nearest = down < up              ? above - 1
                     : up < down            ? above
                     : (above - 1) % 2 == 0 ? above - 1
                                            : above;
    best = static_cast<uint8_t>(nearest);
  }
  // Half an ulp or more past the largest finite value: out of range.
  double largest = values.back();
  double halfUlp = (largest - values[values.size() - 2]) / 2;
  if (magnitude >= largest + halfUlp)
    return sign | (e4m3 ? 0x7F : 0x7C);
  return sign | best;
}

double NDArray::at(int64_t i) const {
  const uint8_t *p = bytes.data() + i * dtype.bytes();
  switch (dtype.code) {
  case DataType::Float:
    return dtype.bits == 64   ? load<double>(p)
           : dtype.bits == 32 ? load<float>(p)
                              : halfToFloat(load<uint16_t>(p));
  case DataType::BFloat: {
    uint32_t bits = static_cast<uint32_t>(load<uint16_t>(p)) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  case DataType::Float8E4M3FN:
  case DataType::Float8E5M2:
    return float8ToDouble(*p, dtype.code == DataType::Float8E4M3FN);
  case DataType::Bool:
    return *p ? 1 : 0;
  case DataType::UInt:
    return dtype.bits == 8    ? load<uint8_t>(p)
           : dtype.bits == 16 ? load<uint16_t>(p)
           : dtype.bits == 32 ? load<uint32_t>(p)
                              : static_cast<double>(load<uint64_t>(p));
  case DataType::Int:
    return dtype.bits == 8    ? load<int8_t>(p)
           : dtype.bits == 16 ? load<int16_t>(p)
           : dtype.bits == 32 ? load<int32_t>(p)
                              : static_cast<double>(load<int64_t>(p));
  }
  return 0;
}

void NDArray::set(int64_t i, double v) {
  uint8_t *p = bytes.data() + i * dtype.bytes();
  switch (dtype.code) {
  case DataType::Float:
    if (dtype.bits == 64)
      store<double>(p, v);
    else if (dtype.bits == 32)
      store<float>(p, static_cast<float>(v));
    else
      store<uint16_t>(p, floatToHalf(static_cast<float>(v)));
    return;
  case DataType::BFloat: {
    float f = static_cast<float>(v);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    store<uint16_t>(p, static_cast<uint16_t>(bits >> 16));
    return;
  }
  case DataType::Float8E4M3FN:
  case DataType::Float8E5M2:
    *p = doubleToFloat8(v, dtype.code == DataType::Float8E4M3FN);
    return;
  case DataType::Bool:
    *p = v != 0;
    return;
  case DataType::UInt:
  case DataType::Int: {
    auto i64 = static_cast<int64_t>(v);
    if (dtype.bits == 8)
      store<int8_t>(p, static_cast<int8_t>(i64));
    else if (dtype.bits == 16)
      store<int16_t>(p, static_cast<int16_t>(i64));
    else if (dtype.bits == 32)
      store<int32_t>(p, static_cast<int32_t>(i64));
    else
      store<int64_t>(p, i64);
    return;
  }
  }
}

std::string NDArray::str() const {
  std::ostringstream os;
  bool isFloat = dtype.isFloat();
  std::vector<int64_t> strides = contiguousStrides(shape);
  int64_t n = numElements();
  for (int64_t i = 0; i < n; ++i) {
    // Open a bracket for every dimension this element starts.
    for (size_t d = 0; d < shape.size(); ++d)
      if (i % (strides[d] * shape[d]) == 0)
        os << "[";
    double v = at(i);
    if (isFloat) {
      std::ostringstream num;
      num << v;
      std::string s = num.str();
      if (s.find_first_of(".eEn") == std::string::npos)
        s += ".";
      os << s;
    } else {
      os << static_cast<int64_t>(v);
    }
    int closed = 0;
    for (size_t d = shape.size(); d-- > 0;) {
      if ((i + 1) % (strides[d] * shape[d]) != 0)
        break;
      os << "]";
      ++closed;
    }
    if (i + 1 < n)
      os << (closed ? "\n" + std::string(shape.size() - closed, ' ') : " ");
  }
  return n ? os.str() : "[]";
}

static std::string descr(DataType t) {
  switch (t.code) {
  case DataType::Bool:
    return "|b1";
  case DataType::Float:
    return "<f" + std::to_string(t.bits / 8);
  case DataType::Int:
    return t.bits == 8 ? "|i1" : "<i" + std::to_string(t.bits / 8);
  case DataType::UInt:
    return t.bits == 8 ? "|u1" : "<u" + std::to_string(t.bits / 8);
  case DataType::BFloat:
  case DataType::Float8E4M3FN:
  case DataType::Float8E5M2:
    return "";
  }
  return "";
}

static std::optional<DataType> fromDescr(const std::string &d) {
  if (d.size() < 3 || (d[0] != '<' && d[0] != '|'))
    return std::nullopt;
  int bytes = std::atoi(d.c_str() + 2);
  switch (d[1]) {
  case 'b':
    return bytes == 1 ? std::optional<DataType>(DataType{DataType::Bool, 1})
                      : std::nullopt;
  case 'f':
    return DataType::parse("float" + std::to_string(bytes * 8));
  case 'i':
    return DataType::parse("int" + std::to_string(bytes * 8));
  case 'u':
    return DataType::parse("uint" + std::to_string(bytes * 8));
  }
  return std::nullopt;
}

/// The value of `key` in numpy's header dict (a Python literal).
static std::string dictValue(const std::string &header,
                             const std::string &key) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos)
    return "";
  size_t colon = header.find(':', k);
  size_t start = header.find_first_not_of(' ', colon + 1);
  if (header[start] == '(')
    return header.substr(start, header.find(')', start) - start + 1);
  size_t end = header.find_first_of(",}", start);
  std::string v = header.substr(start, end - start);
  while (!v.empty() && v.back() == ' ')
    v.pop_back();
  if (v.size() >= 2 && (v[0] == '\'' || v[0] == '"'))
    v = v.substr(1, v.size() - 2);
  return v;
}

bool mlir::tir::runtime::readNpy(const std::string &path, NDArray &array,
                                 std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "'";
    return false;
  }
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0) {
    error = "'" + path + "' is not a .npy file";
    return false;
  }
  uint32_t headerLen = 0;
  if (magic[6] == 1) {
    uint8_t b[2];
    in.read(reinterpret_cast<char *>(b), 2);
    headerLen = b[0] | (b[1] << 8);
  } else {
    uint8_t b[4];
    in.read(reinterpret_cast<char *>(b), 4);
    headerLen = b[0] | (b[1] << 8) | (b[2] << 16) | (uint32_t(b[3]) << 24);
  }
  // Sizes come from the file: check them against its length before
  // allocating anything.
  in.seekg(0, std::ios::end);
  auto fileSize = static_cast<uint64_t>(in.tellg());
  uint64_t dataStart = (magic[6] == 1 ? 10 : 12) + uint64_t(headerLen);
  if (!in || magic[6] < 1 || magic[6] > 3 || dataStart > fileSize) {
    error = "'" + path + "': truncated or malformed header";
    return false;
  }
  in.seekg(dataStart - headerLen);
  std::string header(headerLen, '\0');
  if (!in.read(header.data(), headerLen)) {
    error = "'" + path + "': truncated header";
    return false;
  }
  std::string d = dictValue(header, "descr");
  auto dtype = fromDescr(d);
  if (!dtype) {
    error = "'" + path + "': unsupported dtype '" + d +
            "' (little-endian bool, int, uint and float arrays are read)";
    return false;
  }
  if (dictValue(header, "fortran_order") != "False") {
    error = "'" + path +
            "': Fortran-order arrays are not read; save a "
            "C-contiguous array (numpy.ascontiguousarray)";
    return false;
  }
  std::string shapeText = dictValue(header, "shape");
  std::vector<int64_t> shape;
  if (shapeText.size() < 2 || shapeText.front() != '(' ||
      shapeText.back() != ')') {
    error = "'" + path + "': no shape in the header";
    return false;
  }
  uint64_t elements = 1;
  for (size_t i = 1; i < shapeText.size();) {
    size_t j = shapeText.find_first_of(",)", i);
    std::string num = shapeText.substr(i, j - i);
    num.erase(0, num.find_first_not_of(' '));
    num.erase(num.find_last_not_of(' ') + 1);
    if (!num.empty()) {
      char *end;
      errno = 0;
      long long d = std::strtoll(num.c_str(), &end, 10);
      if (*end || errno || d < 0 ||
          __builtin_mul_overflow(elements, static_cast<uint64_t>(d),
                                 &elements)) {
        error = "'" + path + "': malformed shape " + shapeText;
        return false;
      }
      shape.push_back(d);
    }
    i = j + 1;
  }
  uint64_t bytes;
  if (__builtin_mul_overflow(elements, uint64_t(dtype->bytes()), &bytes) ||
      bytes > fileSize - dataStart) {
    error = "'" + path + "': fewer data bytes than its shape " + shapeText +
            " says";
    return false;
  }
  array = NDArray(*dtype, shape);
  if (!in.read(reinterpret_cast<char *>(array.bytes.data()),
               array.bytes.size())) {
    error = "'" + path + "': fewer data bytes than its shape says";
    return false;
  }
  return true;
}

bool mlir::tir::runtime::writeNpy(const std::string &path, const NDArray &array,
                                  std::string &error) {
  std::string d = descr(array.dtype);
  if (d.empty()) {
    error = "numpy has no " + array.dtype.str() + " type to write '" + path +
            "' with";
    return false;
  }
  std::string shape = "(";
  for (size_t i = 0; i < array.shape.size(); ++i)
    shape += std::to_string(array.shape[i]) +
             (array.shape.size() == 1 || i + 1 < array.shape.size() ? "," : "");
  shape += ")";
  std::string header = "{'descr': '" + d + "', 'fortran_order': False, " +
                       "'shape': " + shape + ", }";
  // Pad so that the data starts at a multiple of 64 bytes.
  size_t total = 10 + header.size() + 1;
  header += std::string((64 - total % 64) % 64, ' ') + "\n";
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  out.write("\x93NUMPY\x01\x00", 8);
  uint16_t len = static_cast<uint16_t>(header.size());
  char lenBytes[2] = {static_cast<char>(len & 0xff),
                      static_cast<char>(len >> 8)};
  out.write(lenBytes, 2);
  out << header;
  out.write(reinterpret_cast<const char *>(array.bytes.data()),
            array.bytes.size());
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}
