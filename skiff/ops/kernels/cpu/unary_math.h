// Vectorizable transcendental functions for CPU kernels: vm::exp, vm::log, vm::erf, ...
//
// GCC does not vectorize a loop that calls std::exp unless glibc's headers declare expf as a
// SIMD function, which they do only under -ffast-math (we want IEEE semantics: NaN checks,
// infinities, signed zeros). So this header declares its own names for the libm functions
// (asm labels bind them to expf, logf, ...) with `simd("notinbranch")` and `const`: the
// vectorizer then calls glibc's libmvec variants (_ZGVeN16v_expf for AVX-512, _ZGVdN8v_expf for
// AVX2, _ZGVbN4v_expf for SSE) inside cpu::run_best_isa, and plain libm outside vector loops.
// libmvec ships with glibc (>= 2.35 for the full set) and libm.so's linker script pulls it in
// AS_NEEDED, so nothing else has to be linked. Elsewhere the functions are plain libm calls.
//
// Accuracy: libmvec's float and double variants are within 4 ulp of the exact result (glibc's
// libm-test-ulps), with C99 special values (exp(-inf) = 0, log(0) = -inf, log(-1) = NaN, NaN in,
// NaN out); the op tests check every function against the float64 reference. Results may differ
// by a few ulp between ISAs and from scalar libm. Measured on 16M float32 (bench/unary_bench.cc),
// a vectorized exp runs several times faster than the scalar libm loop.
#pragma once

#include <cmath>  // also defines __GLIBC__
#include <complex>

#if defined(__x86_64__) && defined(__GLIBC__) && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
#define SKIFF_VM_SIMD gnu::simd("notinbranch"),
#else
#define SKIFF_VM_SIMD
#endif

// clang-format off
#define SKIFF_VM_DECLARE(name)                                                       \
  [[SKIFF_VM_SIMD gnu::const, gnu::nothrow]] float skiff_vm_##name##f(float) __asm__(#name "f"); \
  [[SKIFF_VM_SIMD gnu::const, gnu::nothrow]] double skiff_vm_##name(double) __asm__(#name);
// clang-format on

extern "C" {
SKIFF_VM_DECLARE(exp)
SKIFF_VM_DECLARE(expm1)
SKIFF_VM_DECLARE(log)
SKIFF_VM_DECLARE(log1p)
SKIFF_VM_DECLARE(log2)
SKIFF_VM_DECLARE(sin)
SKIFF_VM_DECLARE(cos)
SKIFF_VM_DECLARE(tan)
SKIFF_VM_DECLARE(tanh)
SKIFF_VM_DECLARE(asin)
SKIFF_VM_DECLARE(acos)
SKIFF_VM_DECLARE(atan)
SKIFF_VM_DECLARE(sinh)
SKIFF_VM_DECLARE(cosh)
SKIFF_VM_DECLARE(erf)
SKIFF_VM_DECLARE(erfc)
}

#undef SKIFF_VM_DECLARE

namespace skiff::ops::cpu::vm {

#define SKIFF_VM_WRAP(name)                                    \
  inline float name(float x) { return skiff_vm_##name##f(x); } \
  inline double name(double x) { return skiff_vm_##name(x); }
SKIFF_VM_WRAP(exp)
SKIFF_VM_WRAP(expm1)
SKIFF_VM_WRAP(log)
SKIFF_VM_WRAP(log1p)
SKIFF_VM_WRAP(log2)
SKIFF_VM_WRAP(sin)
SKIFF_VM_WRAP(cos)
SKIFF_VM_WRAP(tan)
SKIFF_VM_WRAP(tanh)
SKIFF_VM_WRAP(asin)
SKIFF_VM_WRAP(acos)
SKIFF_VM_WRAP(atan)
SKIFF_VM_WRAP(sinh)
SKIFF_VM_WRAP(cosh)
SKIFF_VM_WRAP(erf)
SKIFF_VM_WRAP(erfc)
#undef SKIFF_VM_WRAP

// Complex arguments: libstdc++'s std::exp, std::log, ... (glibc's cexp, clog, ...: C99 special
// values, numpy's principal branches); libmvec has no complex variants, so these stay scalar.
#define SKIFF_VM_COMPLEX(name)                     \
  template <typename R>                            \
  inline std::complex<R> name(std::complex<R> z) { \
    return std::name(z);                           \
  }
SKIFF_VM_COMPLEX(exp)
SKIFF_VM_COMPLEX(log)
SKIFF_VM_COMPLEX(sin)
SKIFF_VM_COMPLEX(cos)
SKIFF_VM_COMPLEX(tan)
SKIFF_VM_COMPLEX(tanh)
SKIFF_VM_COMPLEX(asin)
SKIFF_VM_COMPLEX(acos)
SKIFF_VM_COMPLEX(atan)
SKIFF_VM_COMPLEX(sinh)
SKIFF_VM_COMPLEX(cosh)
#undef SKIFF_VM_COMPLEX

/// exp(z) - 1 without the cancellation near 0: real part expm1(x) cos y - 2 sin^2(y / 2) (numpy's
/// formula), imaginary part e^x sin y.
template <typename R>
inline std::complex<R> expm1(std::complex<R> z) {
  const R x = z.real(), y = z.imag(), h = std::sin(y / 2);
  return {std::expm1(x) * std::cos(y) - 2 * h * h, std::exp(x) * std::sin(y)};
}
/// log(1 + z); near 0 the real part is log1p(2x + x^2 + y^2) / 2 = log|1 + z|, without the
/// cancellation of 1 + z.
template <typename R>
inline std::complex<R> log1p(std::complex<R> z) {
  const R x = z.real(), y = z.imag();
  if (std::abs(z) >= R(0.5)) return std::log(R(1) + z);
  return {std::log1p(x * (2 + x) + y * y) / 2, std::atan2(y, 1 + x)};
}
/// log(z) / log(2), both parts scaled.
template <typename R>
inline std::complex<R> log2(std::complex<R> z) {
  return std::log(z) * R(1.44269504088896340736);
}

}  // namespace skiff::ops::cpu::vm
