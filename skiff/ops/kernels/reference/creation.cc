// Reference kernels of the creation ops: plain loops computing in double (int64 for integer
// results), reproducing the CPU kernels' Philox draws element by element.
#include "skiff/ops/generated/kernels/creation.h"

#include <cmath>
#include <numbers>
#include <vector>

#include "skiff/core/generator.h"
#include "skiff/ops/kernel.h"

namespace skiff::ops {

namespace {

template <typename T>
T to(double v) {
  if constexpr (std::is_same_v<T, bool>)
    return v != 0.0;
  else
    return static_cast<T>(v);
}

template <typename T, typename F>
void each(DenseTensor& out, const F& f) {
  T* p = static_cast<T*>(out.raw_data());
  for (int64_t i = 0; i < out.numel(); ++i) p[i] = f(i);
}

PhiloxState state_for(const KernelContext& ctx, int64_t seed, uint64_t counters) {
  if (seed != 0) return {static_cast<uint64_t>(seed), 0};
  return default_generator(ctx.place).reserve(counters);
}

}  // namespace

template <typename T>
void full_reference(const KernelContext&, const FullArgs& a) {
  each<T>(*a.out, [&](int64_t) { return a.fill_value.to<T>(); });
}
SKIFF_INSTANTIATE_KERNEL(full, reference)

template <typename T>
void full_like_reference(const KernelContext&, const FullLikeArgs& a) {
  each<T>(*a.out, [&](int64_t) { return a.fill_value.to<T>(); });
}
SKIFF_INSTANTIATE_KERNEL(full_like, reference)

template <typename T>
void zeros_reference(const KernelContext&, const ZerosArgs& a) {
  each<T>(*a.out, [](int64_t) { return to<T>(0.0); });
}
SKIFF_INSTANTIATE_KERNEL(zeros, reference)

template <typename T>
void ones_reference(const KernelContext&, const OnesArgs& a) {
  each<T>(*a.out, [](int64_t) { return to<T>(1.0); });
}
SKIFF_INSTANTIATE_KERNEL(ones, reference)

template <typename T>
void zeros_like_reference(const KernelContext&, const ZerosLikeArgs& a) {
  each<T>(*a.out, [](int64_t) { return to<T>(0.0); });
}
SKIFF_INSTANTIATE_KERNEL(zeros_like, reference)

template <typename T>
void ones_like_reference(const KernelContext&, const OnesLikeArgs& a) {
  each<T>(*a.out, [](int64_t) { return to<T>(1.0); });
}
SKIFF_INSTANTIATE_KERNEL(ones_like, reference)

template <typename T>
void arange_reference(const KernelContext&, const ArangeArgs& a) {
  each<T>(*a.out, [&](int64_t i) { return to<T>(a.start.to_double() + i * a.step.to_double()); });
}
SKIFF_INSTANTIATE_KERNEL(arange, reference)

template <typename T>
void linspace_reference(const KernelContext&, const LinspaceArgs& a) {
  const double start = a.start.to_double(), stop = a.stop.to_double();
  each<T>(*a.out, [&](int64_t i) {
    if (a.num == 1) return to<T>(start);
    return to<T>(start + (stop - start) * static_cast<double>(i) / static_cast<double>(a.num - 1));
  });
}
SKIFF_INSTANTIATE_KERNEL(linspace, reference)

template <typename T>
void eye_reference(const KernelContext&, const EyeArgs& a) {
  const int64_t cols = a.out->dim(1);
  each<T>(*a.out, [&](int64_t i) { return to<T>(i / cols == i % cols ? 1.0 : 0.0); });
}
SKIFF_INSTANTIATE_KERNEL(eye, reference)

template <typename T>
void uniform_reference(const KernelContext& ctx, const UniformArgs& a) {
  const int64_t n = a.out->numel();
  const bool wide = std::is_same_v<T, double>;
  const PhiloxState s = state_for(ctx, a.seed, wide ? (n + 1) / 2 : (n + 3) / 4);
  each<T>(*a.out, [&](int64_t i) {
    double u;
    if (wide) {
      const auto w = philox4x32(s.offset + i / 2, 0, s.seed);
      u = uints_to_unit_double(w[2 * (i % 2)], w[2 * (i % 2) + 1]);
    } else {
      u = static_cast<double>(philox4x32(s.offset + i / 4, 0, s.seed)[i % 4] >> 8) / 16777216.0;
    }
    return to<T>(a.min + (a.max - a.min) * u);
  });
}
SKIFF_INSTANTIATE_KERNEL(uniform, reference)

template <typename T>
void gaussian_reference(const KernelContext& ctx, const GaussianArgs& a) {
  const int64_t n = a.out->numel();
  const bool wide = std::is_same_v<T, double>;
  const PhiloxState s = state_for(ctx, a.seed, wide ? (n + 1) / 2 : (n + 3) / 4);
  each<T>(*a.out, [&](int64_t i) {
    double u1, u2;
    if (wide) {
      const auto w = philox4x32(s.offset + i / 2, 0, s.seed);
      u1 = 1.0 - uints_to_unit_double(w[0], w[1]);
      u2 = uints_to_unit_double(w[2], w[3]);
    } else {
      const auto w = philox4x32(s.offset + i / 4, 0, s.seed);
      const int64_t pair = (i / 2) % 2;
      u1 = 1.0 - static_cast<double>(w[2 * pair] >> 8) / 16777216.0;
      u2 = static_cast<double>(w[2 * pair + 1] >> 8) / 16777216.0;
    }
    const double r = std::sqrt(-2.0 * std::log(u1)), theta = 2.0 * std::numbers::pi * u2;
    return to<T>(a.mean + a.std * r * (i % 2 == 0 ? std::cos(theta) : std::sin(theta)));
  });
}
SKIFF_INSTANTIATE_KERNEL(gaussian, reference)

template <typename T>
void randint_reference(const KernelContext& ctx, const RandintArgs& a) {
  const int64_t n = a.out->numel();
  const uint64_t range = static_cast<uint64_t>(a.high - a.low);
  const bool wide = range > (uint64_t{1} << 32);
  const PhiloxState s = state_for(ctx, 0, wide ? (n + 1) / 2 : (n + 3) / 4);
  each<T>(*a.out, [&](int64_t i) {
    uint64_t draw;
    if (wide) {
      const auto w = philox4x32(s.offset + i / 2, 0, s.seed);
      draw = (static_cast<uint64_t>(w[2 * (i % 2)]) << 32) | w[2 * (i % 2) + 1];
    } else {
      draw = philox4x32(s.offset + i / 4, 0, s.seed)[i % 4];
    }
    return static_cast<T>(a.low + static_cast<int64_t>(draw % range));
  });
}
SKIFF_INSTANTIATE_KERNEL(randint, reference)

template <typename T>
void randperm_reference(const KernelContext& ctx, const RandpermArgs& a) {
  const PhiloxState s = state_for(ctx, 0, (a.n + 3) / 4);
  std::vector<int64_t> perm(a.n);
  for (int64_t i = 0; i < a.n; ++i) perm[i] = i;
  for (int64_t i = a.n - 1; i >= 1; --i) {
    const uint32_t word = philox4x32(s.offset + i / 4, 0, s.seed)[i % 4];
    std::swap(perm[i], perm[word % static_cast<uint64_t>(i + 1)]);
  }
  each<T>(*a.out, [&](int64_t i) { return static_cast<T>(perm[i]); });
}
SKIFF_INSTANTIATE_KERNEL(randperm, reference)

}  // namespace skiff::ops
