// Reference kernels of the unary math ops: the textbook formula in float64 (int64 for integer
// results, complex128 for complex inputs) with libm's functions, element by element.
#include "skiff/ops/generated/kernels/unary.h"

#include <cmath>
#include <type_traits>

#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/complex_math.h"
#include "skiff/ops/kernels/reference/ref_loops.h"

namespace skiff::ops {

using reference::map1;

namespace {
// The textbook complex forms of the functions std:: has only for real arguments.
namespace textbook {
using std::expm1, std::log1p, std::log2;
inline std::complex<double> expm1(std::complex<double> v) { return std::exp(v) - 1.0; }
inline std::complex<double> log1p(std::complex<double> v) { return std::log(1.0 + v); }
inline std::complex<double> log2(std::complex<double> v) { return std::log(v) / std::log(2.0); }
}  // namespace textbook
}  // namespace

// Float-result ops: float64 in, float64 out; int64 in, float32 out; complex128 in and out (the
// same formula on std::complex<double>).
#define SKIFF_FLOAT_RESULT_REFERENCE(op, Args, ...)                         \
  template <typename T>                                                     \
  void op##_reference(const KernelContext&, const Args& a) {                \
    if constexpr (is_complex_v<T>) {                                        \
      map1<T, T>(a.x, *a.out, [](T v) -> T { return __VA_ARGS__; });        \
    } else {                                                                \
      using Out = std::conditional_t<std::is_integral_v<T>, float, double>; \
      map1<Out, T>(a.x, *a.out, [](T t) {                                   \
        const double v = static_cast<double>(t);                            \
        return static_cast<Out>(__VA_ARGS__);                               \
      });                                                                   \
    }                                                                       \
  }                                                                         \
  SKIFF_INSTANTIATE_KERNEL(op, reference)

SKIFF_FLOAT_RESULT_REFERENCE(exp, ExpArgs, std::exp(v))
SKIFF_FLOAT_RESULT_REFERENCE(expm1, Expm1Args, textbook::expm1(v))
SKIFF_FLOAT_RESULT_REFERENCE(log, LogArgs, std::log(v))
SKIFF_FLOAT_RESULT_REFERENCE(log1p, Log1pArgs, textbook::log1p(v))
SKIFF_FLOAT_RESULT_REFERENCE(log2, Log2Args, textbook::log2(v))
SKIFF_FLOAT_RESULT_REFERENCE(sqrt, SqrtArgs, std::sqrt(v))
SKIFF_FLOAT_RESULT_REFERENCE(rsqrt, RsqrtArgs, 1.0 / std::sqrt(v))
SKIFF_FLOAT_RESULT_REFERENCE(reciprocal, ReciprocalArgs, 1.0 / v)
SKIFF_FLOAT_RESULT_REFERENCE(sin, SinArgs, std::sin(v))
SKIFF_FLOAT_RESULT_REFERENCE(cos, CosArgs, std::cos(v))
SKIFF_FLOAT_RESULT_REFERENCE(tan, TanArgs, std::tan(v))
SKIFF_FLOAT_RESULT_REFERENCE(tanh, TanhArgs, std::tanh(v))
SKIFF_FLOAT_RESULT_REFERENCE(asin, AsinArgs, std::asin(v))
SKIFF_FLOAT_RESULT_REFERENCE(acos, AcosArgs, std::acos(v))
SKIFF_FLOAT_RESULT_REFERENCE(atan, AtanArgs, std::atan(v))
SKIFF_FLOAT_RESULT_REFERENCE(sinh, SinhArgs, std::sinh(v))
SKIFF_FLOAT_RESULT_REFERENCE(cosh, CoshArgs, std::cosh(v))
SKIFF_FLOAT_RESULT_REFERENCE(erf, ErfArgs, std::erf(v))
#undef SKIFF_FLOAT_RESULT_REFERENCE

// Same-dtype ops: float64 or int64 (integer results wrap when cast to the tested dtype).
#define SKIFF_SAME_DTYPE_REFERENCE(op, Args, int_expr, float_expr)  \
  template <typename T>                                             \
  void op##_reference(const KernelContext&, const Args& a) {        \
    if constexpr (std::is_integral_v<T>) {                          \
      map1<T, T>(a.x, *a.out, [](T v) -> T { return int_expr; });   \
    } else {                                                        \
      map1<T, T>(a.x, *a.out, [](T v) -> T { return float_expr; }); \
    }                                                               \
  }                                                                 \
  SKIFF_INSTANTIATE_KERNEL(op, reference)

template <typename T>
void abs_reference(const KernelContext&, const AbsArgs& a) {
  if constexpr (is_complex_v<T>) {  // |z| as a real result
    map1<real_t<T>, T>(a.x, *a.out, [](T v) { return std::abs(v); });
  } else if constexpr (std::is_integral_v<T>) {
    map1<T, T>(a.x, *a.out, [](T v) -> T { return v < 0 ? -v : v; });
  } else {
    map1<T, T>(a.x, *a.out, [](T v) -> T { return std::fabs(v); });
  }
}
SKIFF_INSTANTIATE_KERNEL(abs, reference)
SKIFF_SAME_DTYPE_REFERENCE(neg, NegArgs, -v, -v)
SKIFF_SAME_DTYPE_REFERENCE(sign, SignArgs, v > 0 ? 1 : (v < 0 ? -1 : 0),
                           std::isnan(v) ? v : (v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0)))
SKIFF_SAME_DTYPE_REFERENCE(square, SquareArgs, v* v, v* v)
SKIFF_SAME_DTYPE_REFERENCE(floor, FloorArgs, v, std::floor(v))
SKIFF_SAME_DTYPE_REFERENCE(ceil, CeilArgs, v, std::ceil(v))
SKIFF_SAME_DTYPE_REFERENCE(trunc, TruncArgs, v, std::trunc(v))
#undef SKIFF_SAME_DTYPE_REFERENCE

template <typename T>
void round_reference(const KernelContext&, const RoundArgs& a) {
  if constexpr (std::is_integral_v<T>) {
    map1<T, T>(a.x, *a.out, [](T v) { return v; });
  } else {
    const double scale = std::pow(10.0, static_cast<double>(a.decimals));
    const bool scaled = a.decimals != 0;
    map1<T, T>(a.x, *a.out,
               [&](T v) { return scaled ? std::round(v * scale) / scale : std::round(v); });
  }
}
SKIFF_INSTANTIATE_KERNEL(round, reference)

// Classification: bool out for bool, int64, float64 and complex128 in (numpy: a complex number
// is NaN or infinite when either part is, finite when both are).
#define SKIFF_CLASSIFY_REFERENCE(op, Args, int_result, combine, fn) \
  template <typename T>                                             \
  void op##_reference(const KernelContext&, const Args& a) {        \
    map1<bool, T>(a.x, *a.out, [](T v) -> bool {                    \
      if constexpr (std::is_integral_v<T>) {                        \
        (void)v;                                                    \
        return int_result;                                          \
      } else if constexpr (is_complex_v<T>) {                       \
        return fn(v.real()) combine fn(v.imag());                   \
      } else {                                                      \
        return fn(v);                                               \
      }                                                             \
    });                                                             \
  }                                                                 \
  SKIFF_INSTANTIATE_KERNEL(op, reference)

SKIFF_CLASSIFY_REFERENCE(isnan, IsnanArgs, false, ||, std::isnan)
SKIFF_CLASSIFY_REFERENCE(isinf, IsinfArgs, false, ||, std::isinf)
SKIFF_CLASSIFY_REFERENCE(isfinite, IsfiniteArgs, true, &&, std::isfinite)
#undef SKIFF_CLASSIFY_REFERENCE

}  // namespace skiff::ops
