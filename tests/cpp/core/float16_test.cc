// float16 / bfloat16 conversions against independent references: decoding by ldexp in double,
// and rounding by a search over the sorted table of representable values (ties to even by
// index parity). On x86 with F16C the hardware conversion is a second oracle for float16.
#include "skiff/core/float16.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace skiff {
namespace {

constexpr uint16_t kHalfInf = 0x7c00;
constexpr uint16_t kBf16Inf = 0x7f80;

// Value of a binary16 pattern, decoded field by field.
double half_ref(uint16_t h) {
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (e == 0x1f) return m ? std::numeric_limits<double>::quiet_NaN() : sign * INFINITY;
  if (e == 0) return sign * std::ldexp(m, -24);
  return sign * std::ldexp(1024 + m, e - 25);
}

// Value of a bfloat16 pattern (1 sign, 8 exponent, 7 mantissa bits).
double bf16_ref(uint16_t b) {
  const int e = (b >> 7) & 0xff, m = b & 0x7f;
  const double sign = (b & 0x8000) ? -1.0 : 1.0;
  if (e == 0xff) return m ? std::numeric_limits<double>::quiet_NaN() : sign * INFINITY;
  if (e == 0) return sign * std::ldexp(m, -133);
  return sign * std::ldexp(128 + m, e - 134);
}

// Sorted magnitudes of the non-negative finite values, plus the value the next pattern (the
// infinity pattern) would have if the exponent went on: the overflow midpoint lies below it.
std::vector<double> table(double (*decode)(uint16_t), uint16_t inf_bits, double next_pow2) {
  std::vector<double> v(inf_bits + 1);
  for (uint32_t i = 0; i < inf_bits; ++i) v[i] = decode(static_cast<uint16_t>(i));
  v[inf_bits] = next_pow2;
  return v;
}
const std::vector<double>& half_table() {
  static const std::vector<double> t = table(half_ref, kHalfInf, 65536.0);
  return t;
}
const std::vector<double>& bf16_table() {
  static const std::vector<double> t = table(bf16_ref, kBf16Inf, std::ldexp(1.0, 128));
  return t;
}

// Round-to-nearest-even by search: positive patterns are ordered like their values, so the
// index of the nearest table entry is the result, and an even index is an even mantissa.
// Differences are exact in double (Sterbenz: x lies within a factor 2 of both neighbours).
uint16_t round_ref(const std::vector<double>& v, double x) {
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double a = std::fabs(x);
  const size_t inf = v.size() - 1;
  if (a >= v[inf]) return static_cast<uint16_t>(sign | inf);
  const size_t i = std::upper_bound(v.begin(), v.end(), a) - v.begin() - 1;
  if (a == v[i]) return static_cast<uint16_t>(sign | i);
  const double below = a - v[i], above = v[i + 1] - a;
  size_t r = below < above ? i : above < below ? i + 1 : (i % 2 == 0 ? i : i + 1);
  return static_cast<uint16_t>(sign | r);
}

bool half_is_nan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }
bool bf16_is_nan(uint16_t b) { return (b & 0x7f80) == 0x7f80 && (b & 0x7f); }

uint16_t to_half(float f) { return float16(f).bits; }
uint16_t to_bf16(float f) { return bfloat16(f).bits; }
uint32_t fbits(float f) { return std::bit_cast<uint32_t>(f); }
float from_bits(uint32_t b) { return std::bit_cast<float>(b); }

TEST(Float16Test, ToFloatAllPatterns) {
  for (uint32_t i = 0; i < 65536; ++i) {
    const auto h = static_cast<uint16_t>(i);
    const float got = float16::from_bits(h);
    const double want = half_ref(h);
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(got)) << std::hex << i;
      ASSERT_EQ(std::signbit(got), (h & 0x8000) != 0) << std::hex << i;
      ASSERT_EQ((fbits(got) >> 13) & 0x3ff, h & 0x3ffu) << "payload kept " << std::hex << i;
      continue;
    }
    ASSERT_EQ(fbits(got), fbits(static_cast<float>(want))) << std::hex << i;  // +-0 included
  }
}

TEST(Float16Test, FromFloatExactValuesRoundTrip) {
  for (uint32_t i = 0; i < 65536; ++i) {
    const auto h = static_cast<uint16_t>(i);
    const uint16_t back = to_half(static_cast<float>(half_ref(h)));
    if (half_is_nan(h)) {
      ASSERT_TRUE(half_is_nan(back)) << std::hex << i;
    } else {
      ASSERT_EQ(back, h) << std::hex << i;
    }
  }
}

// Every midpoint between consecutive non-negative halves (and 65520, the midpoint to the
// would-be 65536) ties to the even neighbour; the floats just beside it go to the near side.
TEST(Float16Test, MidpointsTieToEven) {
  const auto& v = half_table();
  for (uint32_t i = 0; i < kHalfInf; ++i) {
    const double mid = (v[i] + v[i + 1]) / 2;  // 12 significant bits: exact in float
    const auto m = static_cast<float>(mid);
    ASSERT_EQ(static_cast<double>(m), mid);
    const uint16_t even = (i % 2 == 0) ? i : i + 1;
    for (float sign : {1.0f, -1.0f}) {
      const uint16_t s = sign < 0 ? 0x8000 : 0;
      ASSERT_EQ(to_half(sign * m), s | even) << "midpoint above " << std::hex << i;
      ASSERT_EQ(to_half(sign * std::nextafter(m, INFINITY)), s | (i + 1)) << std::hex << i;
      ASSERT_EQ(to_half(sign * std::nextafter(m, 0.0f)), s | i) << std::hex << i;
    }
  }
}

TEST(Float16Test, OverflowSubnormalsZerosInfNan) {
  EXPECT_EQ(to_half(65504.0f), 0x7bff);
  EXPECT_EQ(to_half(std::nextafter(65520.0f, 0.0f)), 0x7bff);
  EXPECT_EQ(to_half(65520.0f), kHalfInf);
  EXPECT_EQ(to_half(-65520.0f), 0x8000 | kHalfInf);
  EXPECT_EQ(to_half(65536.0f), kHalfInf);
  EXPECT_EQ(to_half(1e10f), kHalfInf);
  EXPECT_EQ(to_half(std::numeric_limits<float>::max()), kHalfInf);
  EXPECT_EQ(to_half(INFINITY), kHalfInf);
  EXPECT_EQ(to_half(-INFINITY), 0xfc00);
  // Subnormals: 2^-24 is the smallest; 2^-25 ties to 0, 3 * 2^-25 ties to 2 * 2^-24.
  EXPECT_EQ(to_half(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(to_half(std::ldexp(1.0f, -25)), 0x0000);
  EXPECT_EQ(to_half(std::nextafter(std::ldexp(1.0f, -25), 1.0f)), 0x0001);
  EXPECT_EQ(to_half(-std::ldexp(1.0f, -25)), 0x8000);
  EXPECT_EQ(to_half(3 * std::ldexp(1.0f, -25)), 0x0002);
  EXPECT_EQ(to_half(std::ldexp(1023.0f, -24)), 0x03ff);  // largest subnormal
  EXPECT_EQ(to_half(std::ldexp(1023.5f, -24)), 0x0400);  // ties up into the normals
  EXPECT_EQ(to_half(std::ldexp(1.0f, -14)), 0x0400);
  EXPECT_EQ(to_half(1e-40f), 0x0000);  // a float subnormal
  EXPECT_EQ(to_half(-1e-40f), 0x8000);
  EXPECT_EQ(to_half(0.0f), 0x0000);
  EXPECT_EQ(to_half(-0.0f), 0x8000);
  EXPECT_EQ(to_half(1.0f), 0x3c00);
  EXPECT_EQ(to_half(-2.0f), 0xc000);
  for (uint32_t nan : {0x7fc00000u, 0x7f800001u, 0x7fa00000u, 0xffc00000u, 0xff800001u}) {
    const uint16_t h = to_half(from_bits(nan));
    EXPECT_TRUE(half_is_nan(h)) << std::hex << nan;
    EXPECT_EQ((h & 0x8000) != 0, (nan >> 31) != 0) << std::hex << nan;
    EXPECT_TRUE(std::isnan(static_cast<float>(float16::from_bits(h))));
  }
}

// A sweep of float bit patterns (every exponent, both signs) against the table reference.
TEST(Float16Test, FromFloatSweepMatchesReference) {
  const auto& v = half_table();
  for (uint64_t b = 0; b < (1ull << 32); b += 997) {
    const float f = from_bits(static_cast<uint32_t>(b));
    const uint16_t got = to_half(f);
    if (std::isnan(f)) {
      ASSERT_TRUE(half_is_nan(got)) << std::hex << b;
      continue;
    }
    ASSERT_EQ(got, round_ref(v, f)) << std::hex << b << " = " << f;
  }
}

// double -> float16 must round once: values a hair off a midpoint, which float would collapse
// onto the midpoint, still go to the near side.
TEST(Float16Test, FromDoubleRoundsOnce) {
  const auto& v = half_table();
  for (uint32_t i = 0; i < kHalfInf; i += 7) {
    const double mid = (v[i] + v[i + 1]) / 2;
    for (double x : {mid, mid * (1 + 0x1p-40), mid * (1 - 0x1p-40), -mid * (1 + 0x1p-45)}) {
      ASSERT_EQ(float16(x).bits, round_ref(v, x)) << std::hex << i << " " << x;
    }
  }
  EXPECT_EQ(float16(1.0 + 0x1p-11 + 0x1p-40).bits, 0x3c01);
  EXPECT_EQ(float16(65520.0 - 1e-9).bits, 0x7bff);
  EXPECT_EQ(float16(1e300).bits, kHalfInf);
  EXPECT_EQ(float16(-1e-300).bits, 0x8000);
  EXPECT_TRUE(half_is_nan(float16(std::nan("")).bits));
}

TEST(Float16Test, FromIntegers) {
  EXPECT_EQ(static_cast<float>(float16(2049)), 2048.0f);  // tie to even
  EXPECT_EQ(static_cast<float>(float16(2051)), 2052.0f);
  EXPECT_EQ(static_cast<float>(float16(int64_t{-7})), -7.0f);
  EXPECT_EQ(float16(65519).bits, 0x7bff);
  EXPECT_EQ(float16(65520).bits, kHalfInf);
  EXPECT_EQ(float16(int64_t{-70000}).bits, 0xfc00);
  EXPECT_EQ(float16(uint8_t{255}).bits, to_half(255.0f));
}

TEST(Float16Test, NumericLimits) {
  using L = std::numeric_limits<float16>;
  EXPECT_EQ(static_cast<float>(L::max()), 65504.0f);
  EXPECT_EQ(static_cast<float>(L::lowest()), -65504.0f);
  EXPECT_EQ(static_cast<float>(L::min()), std::ldexp(1.0f, -14));
  EXPECT_EQ(static_cast<float>(L::epsilon()), std::ldexp(1.0f, -10));
  EXPECT_TRUE(std::isinf(static_cast<float>(L::infinity())));
  EXPECT_TRUE(std::isnan(static_cast<float>(L::quiet_NaN())));
}

#if defined(__x86_64__)
__attribute__((target("f16c"))) uint16_t f16c_from_float(float f) {
  return static_cast<uint16_t>(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT));
}
__attribute__((target("f16c"))) float f16c_to_float(uint16_t h) { return _cvtsh_ss(h); }

// cpuid directly: clang 14's __builtin_cpu_supports does not know "f16c".
bool cpu_has_f16c() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C) != 0;
}

TEST(Float16Test, AgreesWithF16C) {
  if (!cpu_has_f16c()) GTEST_SKIP() << "no F16C on this CPU";
  for (uint32_t i = 0; i < 65536; ++i) {
    const auto h = static_cast<uint16_t>(i);
    const float want = f16c_to_float(h), got = float16::from_bits(h);
    if (half_is_nan(h)) {
      ASSERT_TRUE(std::isnan(got));
      continue;
    }
    ASSERT_EQ(fbits(got), fbits(want)) << std::hex << i;
  }
  for (uint64_t b = 0; b < (1ull << 32); b += 61) {
    const float f = from_bits(static_cast<uint32_t>(b));
    const uint16_t want = f16c_from_float(f), got = to_half(f);
    if (std::isnan(f)) {
      ASSERT_TRUE(half_is_nan(got));
      continue;
    }
    ASSERT_EQ(got, want) << std::hex << b << " = " << f;
  }
}
#endif

TEST(BFloat16Test, ToFloatAllPatterns) {
  for (uint32_t i = 0; i < 65536; ++i) {
    const auto b = static_cast<uint16_t>(i);
    const float got = bfloat16::from_bits(b);
    const double want = bf16_ref(b);
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(got)) << std::hex << i;
      ASSERT_EQ(std::signbit(got), (b & 0x8000) != 0) << std::hex << i;
      continue;
    }
    ASSERT_EQ(fbits(got), fbits(static_cast<float>(want))) << std::hex << i;
  }
}

TEST(BFloat16Test, FromFloatExactValuesRoundTrip) {
  for (uint32_t i = 0; i < 65536; ++i) {
    const auto b = static_cast<uint16_t>(i);
    const uint16_t back = to_bf16(static_cast<float>(bf16_ref(b)));
    if (bf16_is_nan(b)) {
      ASSERT_TRUE(bf16_is_nan(back)) << std::hex << i;
    } else {
      ASSERT_EQ(back, b) << std::hex << i;
    }
  }
}

TEST(BFloat16Test, MidpointsTieToEven) {
  const auto& v = bf16_table();
  for (uint32_t i = 0; i < kBf16Inf; ++i) {
    const double mid = (v[i] + v[i + 1]) / 2;  // 9 significant bits, >= 2^-134: exact
    const auto m = static_cast<float>(mid);
    ASSERT_EQ(static_cast<double>(m), mid);
    const uint16_t even = (i % 2 == 0) ? i : i + 1;
    for (float sign : {1.0f, -1.0f}) {
      const uint16_t s = sign < 0 ? 0x8000 : 0;
      ASSERT_EQ(to_bf16(sign * m), s | even) << "midpoint above " << std::hex << i;
      ASSERT_EQ(to_bf16(sign * std::nextafter(m, INFINITY)), s | (i + 1)) << std::hex << i;
      ASSERT_EQ(to_bf16(sign * std::nextafter(m, 0.0f)), s | i) << std::hex << i;
    }
  }
}

TEST(BFloat16Test, OverflowSubnormalsZerosInfNan) {
  EXPECT_EQ(to_bf16(std::numeric_limits<float>::max()), kBf16Inf);  // above the last midpoint
  EXPECT_EQ(to_bf16(from_bits(0x7f7f7fffu)), 0x7f7f);
  EXPECT_EQ(to_bf16(from_bits(0x7f7f8000u)), kBf16Inf);  // tie: 0x7f80 is even
  EXPECT_EQ(to_bf16(INFINITY), kBf16Inf);
  EXPECT_EQ(to_bf16(-INFINITY), 0xff80);
  EXPECT_EQ(to_bf16(from_bits(0x00000001u)), 0x0000);  // float subnormals round within bf16's
  EXPECT_EQ(to_bf16(from_bits(0x00008000u)), 0x0000);  // tie to even 0
  EXPECT_EQ(to_bf16(from_bits(0x00018000u)), 0x0002);  // tie to even 2
  EXPECT_EQ(to_bf16(from_bits(0x00008001u)), 0x0001);
  EXPECT_EQ(to_bf16(0.0f), 0x0000);
  EXPECT_EQ(to_bf16(-0.0f), 0x8000);
  EXPECT_EQ(to_bf16(1.0f), 0x3f80);
  EXPECT_EQ(to_bf16(from_bits(0x3f808000u)), 0x3f80);  // 1 + 2^-8 ties to 1
  EXPECT_EQ(to_bf16(from_bits(0x3f818000u)), 0x3f82);  // ties up to even
  for (uint32_t nan : {0x7fc00000u, 0x7f800001u, 0x7f810000u, 0xffc00000u, 0xff800001u}) {
    const uint16_t b = to_bf16(from_bits(nan));
    EXPECT_TRUE(bf16_is_nan(b)) << std::hex << nan;
    EXPECT_EQ((b & 0x8000) != 0, (nan >> 31) != 0) << std::hex << nan;
  }
}

TEST(BFloat16Test, FromFloatSweepMatchesReference) {
  const auto& v = bf16_table();
  for (uint64_t b = 0; b < (1ull << 32); b += 997) {
    const float f = from_bits(static_cast<uint32_t>(b));
    const uint16_t got = to_bf16(f);
    if (std::isnan(f)) {
      ASSERT_TRUE(bf16_is_nan(got)) << std::hex << b;
      continue;
    }
    ASSERT_EQ(got, round_ref(v, f)) << std::hex << b << " = " << f;
  }
  std::mt19937 rng(7);
  for (int k = 0; k < 1000000; ++k) {
    const float f = from_bits(rng());
    if (std::isnan(f)) continue;
    ASSERT_EQ(to_bf16(f), round_ref(v, f)) << f;
  }
}

TEST(BFloat16Test, FromDoubleAndIntegersRoundOnce) {
  const auto& v = bf16_table();
  for (uint32_t i = 0; i < kBf16Inf; i += 5) {
    const double mid = (v[i] + v[i + 1]) / 2;
    for (double x : {mid, mid * (1 + 0x1p-40), mid * (1 - 0x1p-40), -mid * (1 - 0x1p-50)}) {
      ASSERT_EQ(bfloat16(x).bits, round_ref(v, x)) << std::hex << i << " " << x;
    }
  }
  // 2^24 + 2^16 + 1 lies just above a bf16 midpoint; through float it would land on the
  // midpoint and tie down to 2^24.
  EXPECT_EQ(static_cast<float>(bfloat16(int32_t{16842753})), 16908288.0f);
  EXPECT_EQ(static_cast<float>(bfloat16(int64_t{16842753})), 16908288.0f);
  EXPECT_EQ(static_cast<float>(bfloat16(16842753.0)), 16908288.0f);
  EXPECT_EQ(static_cast<float>(bfloat16(int32_t{16842752})), 16777216.0f);  // exact tie
  EXPECT_EQ(static_cast<float>(bfloat16(257)), 256.0f);
  EXPECT_EQ(static_cast<float>(bfloat16(259)), 260.0f);
  EXPECT_EQ(bfloat16(1e300).bits, kBf16Inf);
  EXPECT_TRUE(bf16_is_nan(bfloat16(-std::nan("")).bits));
}

TEST(BFloat16Test, NumericLimits) {
  using L = std::numeric_limits<bfloat16>;
  EXPECT_EQ(static_cast<double>(static_cast<float>(L::max())), bf16_ref(0x7f7f));
  EXPECT_EQ(static_cast<float>(L::lowest()), -static_cast<float>(L::max()));
  EXPECT_EQ(static_cast<float>(L::min()), std::numeric_limits<float>::min());
  EXPECT_EQ(static_cast<float>(L::epsilon()), std::ldexp(1.0f, -7));
  EXPECT_TRUE(std::isinf(static_cast<float>(L::infinity())));
  EXPECT_TRUE(std::isnan(static_cast<float>(L::quiet_NaN())));
}

TEST(Float16Test, ComputeType) {
  static_assert(std::is_same_v<compute_t<float16>, float>);
  static_assert(std::is_same_v<compute_t<bfloat16>, float>);
  static_assert(std::is_same_v<compute_t<double>, double>);
  static_assert(std::is_same_v<compute_t<int8_t>, int8_t>);
}

}  // namespace
}  // namespace skiff
