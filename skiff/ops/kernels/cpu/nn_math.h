// Vectorizable math for the nn kernels. GCC does not vectorize calls to std::exp (glibc's
// libmvec variants need -ffast-math), so softmax-like kernels use exp_f32: Cephes' expf
// polynomial with a branch-free range reduction that compiles to plain SIMD arithmetic inside
// run_best_isa loops. Blocked sums keep fp32 reductions accurate: 64 lanes per 1024-element
// block in the compute type, blocks added in double (error ~ (16 + n/1024) ulp, not n ulp).
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace skiff::ops::cpu {

/// e^x for float. Relative error below 2e-7 (about 2 ulp; checked in nn_test.cc over the whole
/// range) for x in [-87.33, 88]; x < -87.33 gives 0 (no subnormals), x > 88 saturates at e^88,
/// NaN gives NaN. Meant for softmax arguments (x <= 0).
inline float exp_f32(float x) {
  constexpr float kLo = -87.33654f, kHi = 88.0f;
  constexpr float kLog2e = 1.44269504088896341f;
  constexpr float kLn2Hi = 0.693359375f, kLn2Lo = -2.12194440e-4f;
  constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
  float xc = x > kHi ? kHi : x;
  xc = xc < kLo ? kLo : xc;
  const float shifted = xc * kLog2e + kRound;
  const float n = shifted - kRound;
  const int32_t ni = std::bit_cast<int32_t>(shifted) - std::bit_cast<int32_t>(kRound);
  const float r = xc - n * kLn2Hi - n * kLn2Lo;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float y = p * r * r + r + 1.0f;
  const float scale = std::bit_cast<float>(static_cast<uint32_t>(ni + 127) << 23);
  return x < kLo ? 0.0f : y * scale;
}

inline double exp_f64(double x) { return std::exp(x); }

/// exp in the compute type C (float: exp_f32, double: std::exp).
template <typename C>
inline C exp_c(C x) {
  if constexpr (std::is_same_v<C, float>)
    return exp_f32(x);
  else
    return exp_f64(x);
}

inline constexpr int kSumLanes = 64;  // 4 AVX-512 accumulators: no add-latency chain
inline constexpr int64_t kSumBlock = 1024;

/// sum_{i<n} f(i): kSumLanes accumulators of type C per block of kSumBlock, blocks in double.
template <typename C, typename F>
inline double blocked_sum(int64_t n, const F& f) {
  double total = 0;
  for (int64_t b = 0; b < n; b += kSumBlock) {
    const int64_t e = std::min(n, b + kSumBlock);
    C acc[kSumLanes] = {};
    int64_t i = b;
    for (; i + kSumLanes <= e; i += kSumLanes) {
      for (int k = 0; k < kSumLanes; ++k) acc[k] += f(i + k);
    }
    C s = 0;
    for (; i < e; ++i) s += f(i);
    for (int k = 0; k < kSumLanes; ++k) s += acc[k];
    total += s;
  }
  return total;
}

/// max_{i<n} f(i) (-inf for n == 0); NaNs are skipped here and propagate through the exp pass.
template <typename C, typename F>
inline C lane_max(int64_t n, const F& f) {
  C acc[kSumLanes];
  for (int k = 0; k < kSumLanes; ++k) acc[k] = -std::numeric_limits<C>::infinity();
  int64_t i = 0;
  for (; i + kSumLanes <= n; i += kSumLanes) {
    for (int k = 0; k < kSumLanes; ++k) {
      const C v = f(i + k);
      acc[k] = v > acc[k] ? v : acc[k];
    }
  }
  for (; i < n; ++i) {
    const C v = f(i);
    acc[0] = v > acc[0] ? v : acc[0];
  }
  C m = acc[0];
  for (int k = 1; k < kSumLanes; ++k) m = acc[k] > m ? acc[k] : m;
  return m;
}

}  // namespace skiff::ops::cpu
