// What the CPU (kissfft) and reference (direct DFT) FFT kernels share: the normalization factor
// and the walk over the 1-D lines of a contiguous tensor along one axis. Each backend supplies
// only the 1-D transform of a line, so the oracle differs from the fast kernel in nothing else.
#pragma once

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "skiff/core/dense_tensor.h"
#include "skiff/core/parallel.h"

namespace skiff::ops::fft {

/// The factor of a transform of n points (the product of the transformed sizes).
inline double scale_of(const std::string& normalization, bool forward, int64_t n) {
  if (normalization == "ortho") return 1.0 / std::sqrt(static_cast<double>(n));
  const bool by_n = forward ? normalization == "forward" : normalization == "backward";
  return by_n ? 1.0 / static_cast<double>(n) : 1.0;
}

/// Calls line(in, out) for every line of `data` (contiguous, dims `dims`) along `axis`: `in` is
/// a gathered copy of the line, `out` a buffer of the same length that is scattered back after.
/// Lines are independent and run in parallel.
template <typename C, typename Line>
void for_each_line(C* data, const Dims& dims, int axis, const Line& line) {
  const int64_t n = dims[axis];
  int64_t inner = 1;
  for (int i = axis + 1; i < dims.size(); ++i) inner *= dims[i];
  const int64_t lines = n == 0 ? 0 : dims.numel() / n;
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n, 1) / 8);
  parallel_for(0, lines, grain, [&](int64_t b, int64_t e) {
    std::vector<C> in(n), out(n);
    for (int64_t l = b; l < e; ++l) {
      C* base = data + (l / inner) * n * inner + (l % inner);
      for (int64_t j = 0; j < n; ++j) in[j] = base[j * inner];
      line(in.data(), out.data(), n);
      for (int64_t j = 0; j < n; ++j) base[j * inner] = out[j];
    }
  });
}

/// Multiplies every element by s (skipped for 1).
template <typename C>
void scale_all(C* data, int64_t count, double s) {
  if (s == 1.0) return;
  using R = typename C::value_type;
  const R f = static_cast<R>(s);
  parallel_for(0, count, kParallelGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) data[i] *= f;
  });
}

}  // namespace skiff::ops::fft

namespace skiff::ops::fft {

/// The three transforms over a backend's 1-D line transform. `Planner`: plan(n, forward) returns
/// a callable (const C* in, C* out) for lines of n points, unscaled.
template <typename C, typename Planner>
void c2c_axes(DenseTensor& t, const std::vector<int64_t>& axes, bool forward, const Planner& plan) {
  for (const int64_t axis : axes) {
    const int64_t n = t.dim(static_cast<int>(axis));
    if (n <= 1) continue;  // a 1-point DFT is the identity
    const auto line = plan(n, forward);
    for_each_line<C>(t.data<C>(), t.dims(), static_cast<int>(axis),
                     [&](const C* in, C* out, int64_t) { line(in, out); });
  }
}

inline int64_t signal_size(const Dims& dims, const std::vector<int64_t>& axes) {
  int64_t n = 1;
  for (const int64_t a : axes) n *= dims[static_cast<int>(a)];
  return n;
}

/// out = scaled DFT of x (complex, any strides) over axes; out contiguous, x's dims.
template <typename C, typename Planner>
void c2c(const DenseTensor& x, DenseTensor& out, const std::vector<int64_t>& axes,
         const std::string& normalization, bool forward, const Planner& plan) {
  out.copy_from(x);
  c2c_axes<C>(out, axes, forward, plan);
  scale_all(out.data<C>(), out.numel(),
            scale_of(normalization, forward, signal_size(x.dims(), axes)));
}

/// x_complex: x converted to complex (contiguous); out: the full or onesided spectrum.
template <typename C, typename Planner>
void r2c(DenseTensor& x_complex, DenseTensor& out, const std::vector<int64_t>& axes,
         const std::string& normalization, bool forward, bool onesided, const Planner& plan) {
  c2c_axes<C>(x_complex, axes, forward, plan);
  scale_all(x_complex.data<C>(), x_complex.numel(),
            scale_of(normalization, forward, signal_size(x_complex.dims(), axes)));
  if (!onesided) return out.copy_from(x_complex);
  out.copy_from(x_complex.as_strided(out.dims(), x_complex.strides(), x_complex.offset()));
}

/// x_copy: a contiguous copy of the complex input (overwritten); full: complex scratch of out's
/// dims. The last axis is completed by Hermitian symmetry (X[n - j] = conj(X[j])) from its
/// first n/2 + 1 entries (missing ones are zeros); out is the real part of the transform.
template <typename C, typename R, typename Planner>
void c2r(DenseTensor& x_copy, DenseTensor& full, DenseTensor& out, const std::vector<int64_t>& axes,
         const std::string& normalization, bool forward, const Planner& plan) {
  const std::vector<int64_t> head(axes.begin(), axes.end() - 1);
  c2c_axes<C>(x_copy, head, forward, plan);
  const int last = static_cast<int>(axes.back());
  const int64_t k = x_copy.dim(last), n = full.dim(last);
  int64_t inner = 1;
  for (int i = last + 1; i < full.rank(); ++i) inner *= full.dim(i);
  const int64_t outer = full.numel() / (n * inner);
  const C* src = x_copy.data<C>();
  C* dst = full.data<C>();
  parallel_for(0, outer * inner, kParallelGrain / std::max<int64_t>(n, 1) + 1,
               [&](int64_t b, int64_t e) {
                 for (int64_t l = b; l < e; ++l) {
                   const int64_t o = l / inner, i = l % inner;
                   const C* s = src + o * k * inner + i;
                   C* d = dst + o * n * inner + i;
                   auto get = [&](int64_t j) { return j < k ? s[j * inner] : C(0); };
                   for (int64_t j = 0; j < n; ++j) {
                     d[j * inner] = j <= n / 2 ? get(j) : std::conj(get(n - j));
                   }
                 }
               });
  c2c_axes<C>(full, {axes.back()}, forward, plan);
  const double s = scale_of(normalization, forward, signal_size(out.dims(), axes));
  R* o = out.data<R>();
  const C* f = full.data<C>();
  parallel_for(0, out.numel(), kParallelGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) o[i] = static_cast<R>(f[i].real() * s);
  });
}

}  // namespace skiff::ops::fft
