// Reference kernels of elementwise binary, comparison, logical, bitwise and ternary ops, and
// cast: plain float64 / int64 / bool loops, written for obviousness.
#include "skiff/ops/generated/kernels/elementwise.h"

#include <cmath>

#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/complex_math.h"
#include "skiff/ops/kernels/reference/ref_loops.h"

namespace skiff::ops {

using reference::map1;
using reference::map2;

namespace {

/// out[idx] = f(a[idx], b[idx], c[idx]) with broadcasting.
template <typename Out, typename A, typename B, typename C, typename F>
void map3(const DenseTensor& a, const DenseTensor& b, const DenseTensor& c, DenseTensor& out,
          const F& f) {
  using reference::broadcast_offset;
  using reference::get;
  const int r = out.rank();
  reference::for_each_index(out.dims(), [&](const int64_t* idx) {
    const A va = get<A>(a, broadcast_offset(a, idx, r));
    const B vb = get<B>(b, broadcast_offset(b, idx, r));
    const C vc = get<C>(c, broadcast_offset(c, idx, r));
    reference::set<Out>(out, reference::offset_of(out, idx), f(va, vb, vc));
  });
}

template <typename T>
void check_divisor(const char* op, T y) {
  if constexpr (std::is_integral_v<T>) {
    SKIFF_ENFORCE(y != 0, kInvalidArgument, op, "y", "no zero divisor for integer division",
                  "a zero element");
  }
}

/// a ** e on integers by repeated multiplication, wrapping (unsigned arithmetic); a negative
/// exponent gives the integer part of the real result, and 0 for a == 0.
int64_t int_power(int64_t a, int64_t e) {
  if (e < 0) {
    if (a == 1) return 1;
    if (a == -1) return e % 2 == 0 ? 1 : -1;
    return 0;
  }
  uint64_t r = 1;
  for (int64_t k = 0; k < e; ++k) r *= static_cast<uint64_t>(a);
  return static_cast<int64_t>(r);
}

double nan_max(double x, double y) { return std::isnan(x) || std::isnan(y) ? NAN : std::max(x, y); }
double nan_min(double x, double y) { return std::isnan(x) || std::isnan(y) ? NAN : std::min(x, y); }

}  // namespace

template <typename T>
void cast_reference(const KernelContext&, const CastArgs& a) {
  visit_dtype_complex(a.dtype, [&](auto tag) {
    using O = decltype(tag);
    map1<O, T>(a.x, *a.out, [](T v) -> O {
      if constexpr (is_complex_v<O> || is_complex_v<T>) {
        return value_cast<O>(static_cast<compute_t<T>>(v));
      } else if constexpr (std::is_same_v<O, bool>) {
        return static_cast<double>(static_cast<compute_t<T>>(v)) != 0.0;
      } else if constexpr (std::is_integral_v<O> && std::is_integral_v<T>) {
        return static_cast<O>(v);
      } else {
        return static_cast<O>(static_cast<double>(static_cast<compute_t<T>>(v)));
      }
    });
  });
}
SKIFF_INSTANTIATE_KERNEL(cast, reference)

template <typename T>
void add_reference(const KernelContext&, const AddArgs& a) {
  map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) { return static_cast<T>(x + y); });
}
SKIFF_INSTANTIATE_KERNEL(add, reference)

template <typename T>
void subtract_reference(const KernelContext&, const SubtractArgs& a) {
  map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) { return static_cast<T>(x - y); });
}
SKIFF_INSTANTIATE_KERNEL(subtract, reference)

template <typename T>
void multiply_reference(const KernelContext&, const MultiplyArgs& a) {
  map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) { return static_cast<T>(x * y); });
}
SKIFF_INSTANTIATE_KERNEL(multiply, reference)

template <typename T>
void divide_reference(const KernelContext&, const DivideArgs& a) {
  if constexpr (std::is_integral_v<T>) {
    map2<float, T, T>(a.x, a.y, *a.out, [](T x, T y) {
      return static_cast<float>(static_cast<double>(x) / static_cast<double>(y));
    });
  } else {
    map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) { return x / y; });
  }
}
SKIFF_INSTANTIATE_KERNEL(divide, reference)

template <typename T>
void floor_divide_reference(const KernelContext&, const FloorDivideArgs& a) {
  map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) -> T {
    check_divisor("floor_divide", y);
    if constexpr (std::is_integral_v<T>) {
      if (y == -1) return static_cast<T>(0 - static_cast<uint64_t>(x));  // no overflow trap
      T q = x / y;
      if (x % y != 0 && ((x < 0) != (y < 0))) q -= 1;
      return q;
    } else {
      return std::floor(x / y);
    }
  });
}
SKIFF_INSTANTIATE_KERNEL(floor_divide, reference)

template <typename T>
void remainder_reference(const KernelContext&, const RemainderArgs& a) {
  map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) -> T {
    check_divisor("remainder", y);
    T r;
    if constexpr (std::is_integral_v<T>) {
      r = y == -1 ? 0 : x % y;
    } else {
      r = std::fmod(x, y);
    }
    if (r != 0 && ((r < 0) != (y < 0))) r += y;
    return r;
  });
}
SKIFF_INSTANTIATE_KERNEL(remainder, reference)

template <typename T>
void pow_reference(const KernelContext&, const PowArgs& a) {
  const double e = a.y.to_double();
  map1<T, T>(a.x, *a.out, [e](T x) -> T {
    if constexpr (std::is_integral_v<T>) {
      if (e == std::trunc(e)) return int_power(x, static_cast<int64_t>(e));
      const double p = std::pow(static_cast<double>(x), e);
      return std::isfinite(p) ? std::llrint(p) : 0;
    } else {
      return std::pow(x, e);
    }
  });
}
SKIFF_INSTANTIATE_KERNEL(pow, reference)

template <typename T>
void elementwise_pow_reference(const KernelContext&, const ElementwisePowArgs& a) {
  map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) -> T {
    if constexpr (std::is_integral_v<T>) {
      return int_power(x, y);
    } else {
      return std::pow(x, y);
    }
  });
}
SKIFF_INSTANTIATE_KERNEL(elementwise_pow, reference)

template <typename T>
void maximum_reference(const KernelContext&, const MaximumArgs& a) {
  if constexpr (std::is_integral_v<T>) {
    map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) { return std::max(x, y); });
  } else {
    map2<T, T, T>(a.x, a.y, *a.out, nan_max);
  }
}
SKIFF_INSTANTIATE_KERNEL(maximum, reference)

template <typename T>
void minimum_reference(const KernelContext&, const MinimumArgs& a) {
  if constexpr (std::is_integral_v<T>) {
    map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) { return std::min(x, y); });
  } else {
    map2<T, T, T>(a.x, a.y, *a.out, nan_min);
  }
}
SKIFF_INSTANTIATE_KERNEL(minimum, reference)

template <typename T>
void equal_reference(const KernelContext&, const EqualArgs& a) {
  map2<bool, T, T>(a.x, a.y, *a.out, [](T x, T y) { return x == y; });
}
SKIFF_INSTANTIATE_KERNEL(equal, reference)

template <typename T>
void not_equal_reference(const KernelContext&, const NotEqualArgs& a) {
  map2<bool, T, T>(a.x, a.y, *a.out, [](T x, T y) { return x != y; });
}
SKIFF_INSTANTIATE_KERNEL(not_equal, reference)

template <typename T>
void less_than_reference(const KernelContext&, const LessThanArgs& a) {
  map2<bool, T, T>(a.x, a.y, *a.out, [](T x, T y) { return x < y; });
}
SKIFF_INSTANTIATE_KERNEL(less_than, reference)

template <typename T>
void less_equal_reference(const KernelContext&, const LessEqualArgs& a) {
  map2<bool, T, T>(a.x, a.y, *a.out, [](T x, T y) { return x <= y; });
}
SKIFF_INSTANTIATE_KERNEL(less_equal, reference)

template <typename T>
void greater_than_reference(const KernelContext&, const GreaterThanArgs& a) {
  map2<bool, T, T>(a.x, a.y, *a.out, [](T x, T y) { return x > y; });
}
SKIFF_INSTANTIATE_KERNEL(greater_than, reference)

template <typename T>
void greater_equal_reference(const KernelContext&, const GreaterEqualArgs& a) {
  map2<bool, T, T>(a.x, a.y, *a.out, [](T x, T y) { return x >= y; });
}
SKIFF_INSTANTIATE_KERNEL(greater_equal, reference)

template <typename T>
void logical_and_reference(const KernelContext&, const LogicalAndArgs& a) {
  map2<bool, T, T>(a.x, a.y, *a.out, [](T x, T y) { return x != T(0) && y != T(0); });
}
SKIFF_INSTANTIATE_KERNEL(logical_and, reference)

template <typename T>
void logical_or_reference(const KernelContext&, const LogicalOrArgs& a) {
  map2<bool, T, T>(a.x, a.y, *a.out, [](T x, T y) { return x != T(0) || y != T(0); });
}
SKIFF_INSTANTIATE_KERNEL(logical_or, reference)

template <typename T>
void logical_xor_reference(const KernelContext&, const LogicalXorArgs& a) {
  map2<bool, T, T>(a.x, a.y, *a.out, [](T x, T y) { return (x != T(0)) != (y != T(0)); });
}
SKIFF_INSTANTIATE_KERNEL(logical_xor, reference)

template <typename T>
void logical_not_reference(const KernelContext&, const LogicalNotArgs& a) {
  map1<bool, T>(a.x, *a.out, [](T x) { return x == T(0); });
}
SKIFF_INSTANTIATE_KERNEL(logical_not, reference)

template <typename T>
void bitwise_and_reference(const KernelContext&, const BitwiseAndArgs& a) {
  map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) -> T { return x & y; });
}
SKIFF_INSTANTIATE_KERNEL(bitwise_and, reference)

template <typename T>
void bitwise_or_reference(const KernelContext&, const BitwiseOrArgs& a) {
  map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) -> T { return x | y; });
}
SKIFF_INSTANTIATE_KERNEL(bitwise_or, reference)

template <typename T>
void bitwise_xor_reference(const KernelContext&, const BitwiseXorArgs& a) {
  map2<T, T, T>(a.x, a.y, *a.out, [](T x, T y) -> T { return x ^ y; });
}
SKIFF_INSTANTIATE_KERNEL(bitwise_xor, reference)

template <typename T>
void bitwise_not_reference(const KernelContext&, const BitwiseNotArgs& a) {
  if constexpr (std::is_same_v<T, bool>) {
    map1<T, T>(a.x, *a.out, [](T x) { return !x; });
  } else {
    map1<T, T>(a.x, *a.out, [](T x) -> T { return ~x; });
  }
}
SKIFF_INSTANTIATE_KERNEL(bitwise_not, reference)

template <typename T>
void where_reference(const KernelContext&, const WhereArgs& a) {
  map3<T, bool, T, T>(a.condition, a.x, a.y, *a.out, [](bool c, T x, T y) { return c ? x : y; });
}
SKIFF_INSTANTIATE_KERNEL(where, reference)

template <typename T>
void clip_reference(const KernelContext&, const ClipArgs& a) {
  const T lo = a.min.to<T>(), hi = a.max.to<T>();
  map1<T, T>(a.x, *a.out, [lo, hi](T x) { return std::min(std::max(x, lo), hi); });
}
SKIFF_INSTANTIATE_KERNEL(clip, reference)

template <typename T>
void lerp_reference(const KernelContext&, const LerpArgs& a) {
  map3<T, T, T, T>(a.x, a.y, a.weight, *a.out, [](T x, T y, T w) { return x + w * (y - x); });
}
SKIFF_INSTANTIATE_KERNEL(lerp, reference)

template <typename T>
void assign_reference(const KernelContext&, const AssignArgs& a) {
  map1<T, T>(a.x, *a.out, [](T x) { return x; });
}
SKIFF_INSTANTIATE_KERNEL(assign, reference)

template <typename T>
void scale_reference(const KernelContext&, const ScaleArgs& a) {
  const T s = a.scale.to<T>(), b = a.bias.to<T>();
  map1<T, T>(a.x, *a.out, [&](T x) -> T { return a.bias_after_scale ? s * x + b : s * (x + b); });
}
SKIFF_INSTANTIATE_KERNEL(scale, reference)

}  // namespace skiff::ops
