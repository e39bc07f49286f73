// CPU kernels of the creation ops. Fills are parallel vectorized stores; random ops draw Philox
// words by element index (element i: counter offset + i / 4, word i % 4; 64-bit draws use
// counter offset + i / 2, words 2 (i % 2) and 2 (i % 2) + 1), so results never depend on the
// thread count, and the reference kernels reproduce the same draws in double.
#include "skiff/ops/generated/kernels/creation.h"

#include <cmath>
#include <numbers>
#include <vector>

#include "skiff/core/generator.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/loops.h"
#include "skiff/ops/meta/creation_meta.h"

namespace skiff::ops {

namespace {

using cpu::store;

template <typename T>
void fill(DenseTensor& out, T value) {
  T* p = out.data<T>();
  parallel_for(0, out.numel(), kParallelGrain, [&](int64_t b, int64_t e) {
    cpu::run_best_isa([&] {
      for (int64_t i = b; i < e; ++i) p[i] = value;
    });
  });
}

// out[i] = f(i) over out's elements, in parallel chunks.
template <typename T, typename F>
void generate(DenseTensor& out, const F& f) {
  T* p = out.data<T>();
  parallel_for(0, out.numel(), kParallelGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) p[i] = f(i);
  });
}

PhiloxState philox_state(const KernelContext& ctx, int64_t seed, uint64_t counters) {
  if (seed != 0) return {static_cast<uint64_t>(seed), 0};
  return default_generator(ctx.place).reserve(counters);
}

// The 32-bit word of element i, and the 64-bit draw of element i (2 words).
inline uint32_t word32(const PhiloxState& s, int64_t i) {
  return philox4x32(s.offset + i / 4, 0, s.seed)[i % 4];
}
inline std::pair<uint32_t, uint32_t> words64(const PhiloxState& s, int64_t i) {
  const auto w = philox4x32(s.offset + i / 2, 0, s.seed);
  return {w[2 * (i % 2)], w[2 * (i % 2) + 1]};
}

}  // namespace

template <typename T>
void full_cpu(const KernelContext&, const FullArgs& a) {
  fill<T>(*a.out, a.fill_value.to<T>());
}
SKIFF_INSTANTIATE_KERNEL(full, cpu)

template <typename T>
void full_like_cpu(const KernelContext&, const FullLikeArgs& a) {
  fill<T>(*a.out, a.fill_value.to<T>());
}
SKIFF_INSTANTIATE_KERNEL(full_like, cpu)

template <typename T>
void zeros_cpu(const KernelContext&, const ZerosArgs& a) {
  fill<T>(*a.out, Scalar(0).to<T>());
}
SKIFF_INSTANTIATE_KERNEL(zeros, cpu)

template <typename T>
void ones_cpu(const KernelContext&, const OnesArgs& a) {
  fill<T>(*a.out, Scalar(1).to<T>());
}
SKIFF_INSTANTIATE_KERNEL(ones, cpu)

template <typename T>
void zeros_like_cpu(const KernelContext&, const ZerosLikeArgs& a) {
  fill<T>(*a.out, Scalar(0).to<T>());
}
SKIFF_INSTANTIATE_KERNEL(zeros_like, cpu)

template <typename T>
void ones_like_cpu(const KernelContext&, const OnesLikeArgs& a) {
  fill<T>(*a.out, Scalar(1).to<T>());
}
SKIFF_INSTANTIATE_KERNEL(ones_like, cpu)

template <typename T>
void arange_cpu(const KernelContext&, const ArangeArgs& a) {
  const double start = a.start.to_double(), step = a.step.to_double();
  generate<T>(*a.out, [&](int64_t i) { return store<T>(start + static_cast<double>(i) * step); });
}
SKIFF_INSTANTIATE_KERNEL(arange, cpu)

template <typename T>
void linspace_cpu(const KernelContext&, const LinspaceArgs& a) {
  const double start = a.start.to_double(), stop = a.stop.to_double();
  const int64_t num = a.num;
  const double step = num > 1 ? (stop - start) / static_cast<double>(num - 1) : 0.0;
  // Symmetric like Paddle and numpy: the first half counts from start, the second from stop.
  generate<T>(*a.out, [&](int64_t i) {
    const double v = i < (num + 1) / 2 ? start + step * static_cast<double>(i)
                                       : stop - step * static_cast<double>(num - 1 - i);
    return store<T>(v);
  });
}
SKIFF_INSTANTIATE_KERNEL(linspace, cpu)

template <typename T>
void eye_cpu(const KernelContext&, const EyeArgs& a) {
  DenseTensor& out = *a.out;
  fill<T>(out, Scalar(0).to<T>());
  const int64_t rows = out.dim(0), cols = out.dim(1);
  T* p = out.data<T>();
  for (int64_t i = 0; i < std::min(rows, cols); ++i) p[i * cols + i] = Scalar(1).to<T>();
}
SKIFF_INSTANTIATE_KERNEL(eye, cpu)

template <typename T>
void uniform_cpu(const KernelContext& ctx, const UniformArgs& a) {
  const int64_t n = a.out->numel();
  if constexpr (std::is_same_v<T, double>) {
    const PhiloxState s = philox_state(ctx, a.seed, (n + 1) / 2);
    const double lo = a.min, width = a.max - a.min;
    generate<T>(*a.out, [&](int64_t i) {
      const auto [hi_w, lo_w] = words64(s, i);
      return lo + width * uints_to_unit_double(hi_w, lo_w);
    });
  } else {
    const PhiloxState s = philox_state(ctx, a.seed, (n + 3) / 4);
    const float lo = static_cast<float>(a.min), width = static_cast<float>(a.max - a.min);
    generate<T>(*a.out,
                [&](int64_t i) { return store<T>(lo + width * uint_to_unit_float(word32(s, i))); });
  }
}
SKIFF_INSTANTIATE_KERNEL(uniform, cpu)

// Box-Muller: elements 2k and 2k + 1 share the pair (u1, u2) of draws; u1 in (0, 1].
template <typename T>
void gaussian_cpu(const KernelContext& ctx, const GaussianArgs& a) {
  const int64_t n = a.out->numel();
  if constexpr (std::is_same_v<T, double>) {
    const PhiloxState s = philox_state(ctx, a.seed, (n + 1) / 2);
    generate<T>(*a.out, [&](int64_t i) {
      const auto w = philox4x32(s.offset + i / 2, 0, s.seed);
      const double u1 = 1.0 - uints_to_unit_double(w[0], w[1]);
      const double u2 = uints_to_unit_double(w[2], w[3]);
      const double r = std::sqrt(-2.0 * std::log(u1)), theta = 2.0 * std::numbers::pi * u2;
      return a.mean + a.std * r * (i % 2 == 0 ? std::cos(theta) : std::sin(theta));
    });
  } else {
    const PhiloxState s = philox_state(ctx, a.seed, (n + 3) / 4);
    const float mean = static_cast<float>(a.mean), sd = static_cast<float>(a.std);
    generate<T>(*a.out, [&](int64_t i) {
      const auto w = philox4x32(s.offset + i / 4, 0, s.seed);
      const int pair = static_cast<int>((i / 2) % 2);
      const float u1 = 1.0f - uint_to_unit_float(w[2 * pair]);
      const float u2 = uint_to_unit_float(w[2 * pair + 1]);
      const float r = std::sqrt(-2.0f * std::log(u1));
      const float theta = 2.0f * std::numbers::pi_v<float> * u2;
      return store<T>(mean + sd * r * (i % 2 == 0 ? std::cos(theta) : std::sin(theta)));
    });
  }
}
SKIFF_INSTANTIATE_KERNEL(gaussian, cpu)

// low + draw % (high - low): one 32-bit word per element when the range fits 32 bits, else a
// 64-bit draw (modulo bias below range / 2^32, resp. range / 2^64).
template <typename T>
void randint_cpu(const KernelContext& ctx, const RandintArgs& a) {
  const int64_t n = a.out->numel();
  const uint64_t range = static_cast<uint64_t>(a.high) - static_cast<uint64_t>(a.low);
  if (range <= (uint64_t{1} << 32)) {
    const PhiloxState s = philox_state(ctx, 0, (n + 3) / 4);
    generate<T>(*a.out, [&](int64_t i) { return static_cast<T>(a.low + word32(s, i) % range); });
  } else {
    const PhiloxState s = philox_state(ctx, 0, (n + 1) / 2);
    generate<T>(*a.out, [&](int64_t i) {
      const auto [hi_w, lo_w] = words64(s, i);
      return static_cast<T>(a.low + ((uint64_t{hi_w} << 32 | lo_w) % range));
    });
  }
}
SKIFF_INSTANTIATE_KERNEL(randint, cpu)

// Fisher-Yates from the top: for i = n-1 .. 1, swap i with word32(i) % (i + 1).
template <typename T>
void randperm_cpu(const KernelContext& ctx, const RandpermArgs& a) {
  const int64_t n = a.n;
  const PhiloxState s = philox_state(ctx, 0, (n + 3) / 4);
  std::vector<int64_t> perm(n);
  for (int64_t i = 0; i < n; ++i) perm[i] = i;
  std::array<uint32_t, 4> w{};
  for (int64_t i = n - 1; i >= 1; --i) {
    if (i % 4 == 3 || i == n - 1) w = philox4x32(s.offset + i / 4, 0, s.seed);
    std::swap(perm[i], perm[w[i % 4] % static_cast<uint64_t>(i + 1)]);
  }
  T* p = a.out->data<T>();
  for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(perm[i]);
}
SKIFF_INSTANTIATE_KERNEL(randperm, cpu)

}  // namespace skiff::ops
