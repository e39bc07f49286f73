// CPU kernels of the unary math ops. Every kernel is one cpu::unary_loop with a small functor:
// contiguous runs are plain loops compiled per ISA, so the functors are written to vectorize:
// transcendental functions go through vm:: (glibc's libmvec, see unary_math.h), sqrt and the
// rounding functions are single instructions, and selections are ternaries, not branches.
// 16-bit floats compute in float. Integer inputs of float-result ops are converted to float32
// first and then share the float32 loop, so each op instantiates one float loop per float dtype.
// Complex inputs take the same functors: vm:: forwards complex arguments to std:: (glibc's cexp,
// clog, ...), and sqrt, 1 / x and x * x are std::complex's own.
#include "skiff/ops/generated/kernels/unary.h"

#include <cmath>
#include <limits>
#include <type_traits>

#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/loops.h"
#include "skiff/ops/kernels/cpu/unary_math.h"

namespace skiff::ops {
namespace {

/// x converted to float32 (integer inputs of float-result ops).
template <typename T>
DenseTensor to_float32(const DenseTensor& x) {
  DenseTensor xf = DenseTensor::empty(x.dims(), DType::kFloat32, x.place());
  cpu::unary_loop<float, T>(x, xf, [](T v) { return static_cast<float>(v); });
  return xf;
}

/// out = f(x) for a float-result op; integer x goes through float32, so F's float32 loop is
/// instantiated once per op, not once per integer dtype.
template <typename T, typename F>
void float_result(const DenseTensor& x, DenseTensor& out, const F& f) {
  if constexpr (std::is_integral_v<T>) {
    cpu::unary_loop<float, float>(to_float32<T>(x), out, f);
  } else {
    cpu::unary_loop<T, T>(x, out, f);
  }
}

/// Named functors shared by several ops, so their integer loops are instantiated once.
struct identity_fn {
  template <typename V>
  V operator()(V v) const {
    return v;
  }
};
template <bool kValue>
struct constant_fn {
  template <typename V>
  bool operator()(V) const {
    return kValue;
  }
};

/// Round half away from zero (std::round) from trunc, which vectorizes (roundps), unlike round.
template <typename V>
inline V round_half_away(V v) {
  const V t = std::trunc(v);
  return t + (std::abs(v - t) >= V(0.5) ? std::copysign(V(1), v) : V(0));
}

}  // namespace

// Float-result ops: exp, log, sin, ... (integers give float32). The functor is a named struct
// so that every integer dtype shares the float32 loop.
#define SKIFF_FLOAT_RESULT_KERNEL(op, Args, ...)       \
  namespace {                                          \
  struct op##_fn {                                     \
    template <typename V>                              \
    V operator()(V v) const {                          \
      return __VA_ARGS__;                              \
    }                                                  \
  };                                                   \
  }                                                    \
  template <typename T>                                \
  void op##_cpu(const KernelContext&, const Args& a) { \
    float_result<T>(a.x, *a.out, op##_fn{});           \
  }                                                    \
  SKIFF_INSTANTIATE_KERNEL(op, cpu)

SKIFF_FLOAT_RESULT_KERNEL(exp, ExpArgs, cpu::vm::exp(v))
SKIFF_FLOAT_RESULT_KERNEL(expm1, Expm1Args, cpu::vm::expm1(v))
SKIFF_FLOAT_RESULT_KERNEL(log, LogArgs, cpu::vm::log(v))
SKIFF_FLOAT_RESULT_KERNEL(log1p, Log1pArgs, cpu::vm::log1p(v))
SKIFF_FLOAT_RESULT_KERNEL(log2, Log2Args, cpu::vm::log2(v))
SKIFF_FLOAT_RESULT_KERNEL(sqrt, SqrtArgs, std::sqrt(v))
SKIFF_FLOAT_RESULT_KERNEL(rsqrt, RsqrtArgs, V(1) / std::sqrt(v))
SKIFF_FLOAT_RESULT_KERNEL(reciprocal, ReciprocalArgs, V(1) / v)
SKIFF_FLOAT_RESULT_KERNEL(sin, SinArgs, cpu::vm::sin(v))
SKIFF_FLOAT_RESULT_KERNEL(cos, CosArgs, cpu::vm::cos(v))
SKIFF_FLOAT_RESULT_KERNEL(tan, TanArgs, cpu::vm::tan(v))
SKIFF_FLOAT_RESULT_KERNEL(tanh, TanhArgs, cpu::vm::tanh(v))
SKIFF_FLOAT_RESULT_KERNEL(asin, AsinArgs, cpu::vm::asin(v))
SKIFF_FLOAT_RESULT_KERNEL(acos, AcosArgs, cpu::vm::acos(v))
SKIFF_FLOAT_RESULT_KERNEL(atan, AtanArgs, cpu::vm::atan(v))
SKIFF_FLOAT_RESULT_KERNEL(sinh, SinhArgs, cpu::vm::sinh(v))
SKIFF_FLOAT_RESULT_KERNEL(cosh, CoshArgs, cpu::vm::cosh(v))
SKIFF_FLOAT_RESULT_KERNEL(erf, ErfArgs, cpu::vm::erf(v))
#undef SKIFF_FLOAT_RESULT_KERNEL

template <typename T>
void abs_cpu(const KernelContext&, const AbsArgs& a) {
  if constexpr (is_complex_v<T>) {  // |z| (hypot, no overflow) as a real result
    cpu::unary_loop<real_t<T>, T>(a.x, *a.out, [](T v) { return std::abs(v); });
  } else if constexpr (std::is_unsigned_v<T>) {
    cpu::unary_loop<T, T>(a.x, *a.out, identity_fn{});
  } else if constexpr (std::is_integral_v<T>) {  // abs(min) wraps to min, as in two's complement
    using U = std::make_unsigned_t<T>;
    cpu::unary_loop<T, T>(a.x, *a.out, [](T v) { return v < 0 ? static_cast<T>(U(0) - U(v)) : v; });
  } else {
    cpu::unary_loop<T, T>(a.x, *a.out, [](auto v) { return std::abs(v); });
  }
}
SKIFF_INSTANTIATE_KERNEL(abs, cpu)

template <typename T>
void neg_cpu(const KernelContext&, const NegArgs& a) {
  if constexpr (std::is_integral_v<T>) {  // wraps around
    using U = std::make_unsigned_t<T>;
    cpu::unary_loop<T, T>(a.x, *a.out, [](T v) { return static_cast<T>(U(0) - U(v)); });
  } else {
    cpu::unary_loop<T, T>(a.x, *a.out, [](auto v) { return -v; });
  }
}
SKIFF_INSTANTIATE_KERNEL(neg, cpu)

template <typename T>
void sign_cpu(const KernelContext&, const SignArgs& a) {
  if constexpr (std::is_integral_v<T>) {
    cpu::unary_loop<T, T>(a.x, *a.out, [](T v) { return static_cast<T>((v > 0) - (v < 0)); });
  } else {  // zeros and NaN pass through
    cpu::unary_loop<T, T>(a.x, *a.out, [](auto v) {
      using V = decltype(v);
      return v > V(0) ? V(1) : (v < V(0) ? V(-1) : v);
    });
  }
}
SKIFF_INSTANTIATE_KERNEL(sign, cpu)

template <typename T>
void square_cpu(const KernelContext&, const SquareArgs& a) {
  if constexpr (std::is_integral_v<T>) {  // wraps around
    using U = std::make_unsigned_t<T>;
    cpu::unary_loop<T, T>(a.x, *a.out, [](T v) { return static_cast<T>(U(v) * U(v)); });
  } else {
    cpu::unary_loop<T, T>(a.x, *a.out, [](auto v) { return v * v; });
  }
}
SKIFF_INSTANTIATE_KERNEL(square, cpu)

// Rounding ops: the identity on integers.
#define SKIFF_ROUNDING_KERNEL(op, Args, ...)                                  \
  template <typename T>                                                       \
  void op##_cpu(const KernelContext&, const Args& a) {                        \
    if constexpr (std::is_integral_v<T>) {                                    \
      cpu::unary_loop<T, T>(a.x, *a.out, identity_fn{});                      \
    } else {                                                                  \
      cpu::unary_loop<T, T>(a.x, *a.out, [](auto v) { return __VA_ARGS__; }); \
    }                                                                         \
  }                                                                           \
  SKIFF_INSTANTIATE_KERNEL(op, cpu)

SKIFF_ROUNDING_KERNEL(floor, FloorArgs, std::floor(v))
SKIFF_ROUNDING_KERNEL(ceil, CeilArgs, std::ceil(v))
SKIFF_ROUNDING_KERNEL(trunc, TruncArgs, std::trunc(v))
#undef SKIFF_ROUNDING_KERNEL

template <typename T>
void round_cpu(const KernelContext&, const RoundArgs& a) {
  if constexpr (std::is_integral_v<T>) {
    cpu::unary_loop<T, T>(a.x, *a.out, identity_fn{});
  } else if (a.decimals == 0) {
    cpu::unary_loop<T, T>(a.x, *a.out, [](auto v) { return round_half_away(v); });
  } else {  // scaled in float64, so that x * 10^decimals rounds once, as in the reference
    const double scale = std::pow(10.0, static_cast<double>(a.decimals));
    cpu::unary_loop<T, T>(a.x, *a.out, [scale](auto v) {
      return static_cast<decltype(v)>(round_half_away(static_cast<double>(v) * scale) / scale);
    });
  }
}
SKIFF_INSTANTIATE_KERNEL(round, cpu)

// Classification ops: bool results; integers and bools are always finite. A complex number
// (numpy's rule) is NaN or infinite when either part is, finite when both parts are.
#define SKIFF_CLASSIFY_KERNEL(op, Args, int_result, combine, ...)                \
  template <typename T>                                                          \
  void op##_cpu(const KernelContext&, const Args& a) {                           \
    if constexpr (std::is_integral_v<T>) {                                       \
      cpu::unary_loop<bool, T>(a.x, *a.out, constant_fn<int_result>{});          \
    } else if constexpr (is_complex_v<T>) {                                      \
      cpu::unary_loop<bool, T>(a.x, *a.out, [](T z) {                            \
        const auto re = z.real(), im = z.imag();                                 \
        auto test = [](auto v) { return __VA_ARGS__; };                          \
        return test(re) combine test(im);                                        \
      });                                                                        \
    } else {                                                                     \
      cpu::unary_loop<bool, T>(a.x, *a.out, [](auto v) { return __VA_ARGS__; }); \
    }                                                                            \
  }                                                                              \
  SKIFF_INSTANTIATE_KERNEL(op, cpu)

SKIFF_CLASSIFY_KERNEL(isnan, IsnanArgs, false, ||, v != v)
SKIFF_CLASSIFY_KERNEL(isinf, IsinfArgs, false, ||,
                      std::abs(v) == std::numeric_limits<decltype(v)>::infinity())
SKIFF_CLASSIFY_KERNEL(isfinite, IsfiniteArgs, true, &&,
                      std::abs(v) < std::numeric_limits<decltype(v)>::infinity())
#undef SKIFF_CLASSIFY_KERNEL

}  // namespace skiff::ops
