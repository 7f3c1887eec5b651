//===- Float8Test.cpp - the runtime's 8-bit float element types -----------===//
//
// float8_e4m3fn and float8_e5m2 (the tensor cores' 8-bit operands): named
// as TVM and ml_dtypes name them, DLPack's codes, and the conversions an
// NDArray makes to and from doubles (rounding to nearest, ties to the even
// mantissa; out of range: NaN for e4m3fn, which has no infinities, infinity
// for e5m2).
//
//===----------------------------------------------------------------------===//

#include "TensorIR/Runtime/NumPy.h"
#include "TensorIR/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace mlir::tir::runtime;

namespace {

/// `value` stored into a one-element array of `dtype`, and its byte.
uint8_t encode(DataType dtype, double value) {
  NDArray a(dtype, {1});
  a.set(0, value);
  return a.bytes[0];
}

double decode(DataType dtype, uint8_t byte) {
  NDArray a(dtype, {1});
  a.bytes[0] = byte;
  return a.at(0);
}

const DataType e4m3{DataType::Float8E4M3FN, 8};
const DataType e5m2{DataType::Float8E5M2, 8};

TEST(Float8, NamesAndCodes) {
  EXPECT_EQ(DataType::parse("float8_e4m3fn"), e4m3);
  EXPECT_EQ(DataType::parse("float8_e5m2"), e5m2);
  EXPECT_EQ(e4m3.str(), "float8_e4m3fn");
  EXPECT_EQ(e5m2.str(), "float8_e5m2");
  EXPECT_EQ(static_cast<int>(e4m3.code), 10);
  EXPECT_EQ(static_cast<int>(e5m2.code), 12);
  EXPECT_EQ(e4m3.bytes(), 1u);
  EXPECT_TRUE(e4m3.isFloat());
  EXPECT_FALSE(DataType::parse("float8"));
}

TEST(Float8, E4M3Values) {
  EXPECT_EQ(encode(e4m3, 1.0), 0x38);
  EXPECT_EQ(encode(e4m3, -2.0), 0xC0);
  EXPECT_EQ(encode(e4m3, 448.0), 0x7E); // the largest
  EXPECT_EQ(encode(e4m3, 0.0), 0x00);
  EXPECT_EQ(encode(e4m3, 0x1p-9), 0x01); // the least subnormal
  EXPECT_EQ(decode(e4m3, 0x01), 0x1p-9);
  EXPECT_EQ(decode(e4m3, 0x7E), 448.0);
  EXPECT_TRUE(std::isnan(decode(e4m3, 0x7F)));
  // 1 + 1/16 lies halfway between 1 and 1.125: to the even mantissa.
  EXPECT_EQ(encode(e4m3, 1.0625), 0x38);
  EXPECT_EQ(encode(e4m3, 1.1875), 0x3A); // between 1.125 and 1.25
  // Past half an ulp (16) beyond 448: no infinity, NaN.
  EXPECT_EQ(encode(e4m3, 460.0), 0x7E);
  EXPECT_EQ(encode(e4m3, 464.0) & 0x7F, 0x7F);
  EXPECT_EQ(encode(e4m3, INFINITY) & 0x7F, 0x7F);
}

TEST(Float8, E5M2Values) {
  EXPECT_EQ(encode(e5m2, 1.0), 0x3C);
  EXPECT_EQ(encode(e5m2, 57344.0), 0x7B); // the largest
  EXPECT_EQ(decode(e5m2, 0x7C), INFINITY);
  EXPECT_TRUE(std::isnan(decode(e5m2, 0x7E)));
  EXPECT_EQ(encode(e5m2, 1e6), 0x7C);
  EXPECT_EQ(encode(e5m2, -1e6), 0xFC);
  EXPECT_EQ(encode(e5m2, 0x1p-16), 0x01); // the least subnormal
}

TEST(Float8, EveryFiniteValueRoundTrips) {
  for (DataType t : {e4m3, e5m2})
    for (int v = 0; v < 256; ++v) {
      double x = decode(t, static_cast<uint8_t>(v));
      if (std::isnan(x) || std::isinf(x))
        continue;
      // -0 and +0 both decode to zero; the sign survives.
      EXPECT_EQ(encode(t, x), static_cast<uint8_t>(v)) << t.str() << " " << v;
    }
}

} // namespace
