// CPU kernels of elementwise binary, comparison, logical, bitwise and ternary ops, and cast.
//
// Design: every op is a small functor handed to the generic loops of loops.h (broadcasting,
// strides, threads, per-ISA vectorization). Large contiguous float add/subtract/multiply/divide
// take a streaming path (see Note [Streaming stores]). Integer floor_divide/remainder check the
// divisor for zeros first: a zero would trap (SIGFPE), so it becomes a clear error instead.
#include "skiff/ops/generated/kernels/elementwise.h"

#include <immintrin.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/loops.h"

namespace skiff::ops {

namespace {

template <typename T>
using C = compute_t<T>;

// Note [Streaming stores]
// A plain store of a large output first reads each cache line it writes (read for ownership), so
// `out = x + y` moves 4 bytes per 3 counted. Non-temporal stores skip that read; they pay off only
// when the output is much larger than the caches, hence the size threshold. Written with
// intrinsics per ISA (the functor style of loops.h cannot express a streaming store in GCC).
constexpr int64_t kStreamingBytes = int64_t{8} << 20;

enum class Arith { kAdd, kSub, kMul, kDiv };

// a = a op b; by reference so that vector types need no ABI change (-Wpsabi).
template <Arith op, typename V>
[[gnu::always_inline]] inline void arith_into(V& a, const V& b) {
  if constexpr (op == Arith::kAdd) a += b;
  if constexpr (op == Arith::kSub) a -= b;
  if constexpr (op == Arith::kMul) a *= b;
  if constexpr (op == Arith::kDiv) a /= b;
}

template <Arith op, typename V>
inline V apply_arith(V a, V b) {
  arith_into<op>(a, b);
  return a;
}

// Scalar head until `o` is aligned to `align` bytes; returns the first vector index.
template <Arith op>
inline int64_t scalar_head(const float* x, const float* y, float* o, int64_t n, int align) {
  int64_t i = 0;
  for (; i < n && reinterpret_cast<uintptr_t>(o + i) % align != 0; ++i) {
    o[i] = apply_arith<op>(x[i], y[i]);
  }
  return i;
}

template <Arith op>
[[gnu::target(SKIFF_AVX512_TARGET)]] void stream_avx512(const float* x, const float* y, float* o,
                                                        int64_t n) {
  int64_t i = scalar_head<op>(x, y, o, n, 64);
  for (; i + 16 <= n; i += 16) {
    __m512 a = _mm512_loadu_ps(x + i);
    arith_into<op>(a, _mm512_loadu_ps(y + i));
    _mm512_stream_ps(o + i, a);
  }
  for (; i < n; ++i) o[i] = apply_arith<op>(x[i], y[i]);
}

template <Arith op>
[[gnu::target(SKIFF_AVX2_TARGET)]] void stream_avx2(const float* x, const float* y, float* o,
                                                    int64_t n) {
  int64_t i = scalar_head<op>(x, y, o, n, 32);
  for (; i + 8 <= n; i += 8) {
    __m256 a = _mm256_loadu_ps(x + i);
    arith_into<op>(a, _mm256_loadu_ps(y + i));
    _mm256_stream_ps(o + i, a);
  }
  for (; i < n; ++i) o[i] = apply_arith<op>(x[i], y[i]);
}

template <Arith op>
void stream_sse2(const float* x, const float* y, float* o, int64_t n) {
  int64_t i = scalar_head<op>(x, y, o, n, 16);
  for (; i + 4 <= n; i += 4) {
    __m128 a = _mm_loadu_ps(x + i);
    arith_into<op>(a, _mm_loadu_ps(y + i));
    _mm_stream_ps(o + i, a);
  }
  for (; i < n; ++i) o[i] = apply_arith<op>(x[i], y[i]);
}

/// out = x op y for large, contiguous, same-shape float32 tensors with streaming stores.
/// Returns false (doing nothing) when the fast path does not apply.
template <Arith op, typename T>
bool try_streaming_binary(const DenseTensor& x, const DenseTensor& y, DenseTensor& out) {
  if constexpr (!std::is_same_v<T, float>) {
    return false;
  } else {
    if (out.nbytes() < kStreamingBytes || !x.is_contiguous() || !y.is_contiguous() ||
        x.dims() != out.dims() || y.dims() != out.dims()) {
      return false;
    }
    const float* px = static_cast<const float*>(x.raw_data());
    const float* py = static_cast<const float*>(y.raw_data());
    float* po = static_cast<float*>(out.raw_data());
    const cpu::CpuIsa isa = cpu::cpu_isa();
    parallel_for(0, out.numel(), kParallelGrain, [&](int64_t b, int64_t e) {
      if (isa == cpu::CpuIsa::kAvx512) {
        stream_avx512<op>(px + b, py + b, po + b, e - b);
      } else if (isa == cpu::CpuIsa::kAvx2) {
        stream_avx2<op>(px + b, py + b, po + b, e - b);
      } else {
        stream_sse2<op>(px + b, py + b, po + b, e - b);
      }
      _mm_sfence();  // streaming stores are weakly ordered: drain them before returning
    });
    return true;
  }
}

template <Arith op, typename T>
void arith(const DenseTensor& x, const DenseTensor& y, DenseTensor& out) {
  if (try_streaming_binary<op, T>(x, y, out)) return;
  cpu::binary_loop<T, T, T>(x, y, out, [](auto a, auto b) { return apply_arith<op>(a, b); });
}

/// Integer division by zero traps; check the divisor first and name the op.
template <typename T>
void enforce_no_zero_divisor(std::string_view op, const DenseTensor& y) {
  if constexpr (std::is_integral_v<T>) {
    const DenseTensor yc = y.is_contiguous() ? y : y.contiguous();
    const T* p = static_cast<const T*>(yc.raw_data());
    for (int64_t i = 0, n = yc.numel(); i < n; ++i) {
      SKIFF_ENFORCE(p[i] != T(0), kInvalidArgument, op, "y", "no zero divisor for integer division",
                    str("0 at flat index ", i));
    }
  }
}

/// Python's a // b on integers (b != 0); wraps for MIN // -1.
template <typename T>
T int_floor_div(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return static_cast<T>(0 - static_cast<std::make_unsigned_t<T>>(a));
    const T q = static_cast<T>(a / b), r = static_cast<T>(a % b);
    return (r != 0 && ((r < 0) != (b < 0))) ? static_cast<T>(q - 1) : q;
  } else {
    return static_cast<T>(a / b);
  }
}

/// Python's a % b on integers (b != 0): the result has b's sign.
template <typename T>
T int_mod(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return 0;
    const T r = static_cast<T>(a % b);
    return (r != 0 && ((r < 0) != (b < 0))) ? static_cast<T>(r + b) : r;
  } else {
    return static_cast<T>(a % b);
  }
}

/// Python's a // b on floats (Paddle's FloorDivideFunctor): exact via fmod.
template <typename V>
V float_floor_div(V a, V b) {
  if (b == 0) return a / b;
  const V mod = std::fmod(a, b);
  V div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1;
  if (div == 0) return std::copysign(V(0), a / b);
  V floored = std::floor(div);
  if (div - floored > V(0.5)) floored += 1;
  return floored;
}

template <typename V>
V float_mod(V a, V b) {
  V r = std::fmod(a, b);
  if (r != 0 && ((b < 0) != (r < 0))) r += b;
  return r;
}

/// a ** e for integers, wrapping like repeated multiplication in T. A negative exponent gives
/// the integer part of 1 / a**-e (1, -1 or 0; 0 for a == 0).
template <typename T>
T int_pow(T a, int64_t e) {
  if (e < 0) {
    if (a == 1) return 1;
    if constexpr (std::is_signed_v<T>) {
      if (a == -1) return (e & 1) ? T(-1) : T(1);
    }
    return 0;
  }
  uint64_t base = static_cast<uint64_t>(static_cast<int64_t>(a)), r = 1;
  for (uint64_t k = static_cast<uint64_t>(e); k; k >>= 1) {
    if (k & 1) r *= base;
    base *= base;
  }
  return static_cast<T>(r);
}

/// NaN test that is a constant false for integers.
template <typename V>
inline bool is_nan(V v) {
  if constexpr (std::is_floating_point_v<V>) {
    return v != v;
  } else {
    return false;
  }
}

template <typename T, typename F>
void compare(const DenseTensor& x, const DenseTensor& y, DenseTensor& out, const F& f) {
  cpu::binary_loop<bool, T, T>(x, y, out, f);
}

}  // namespace

template <typename T>
void cast_cpu(const KernelContext&, const CastArgs& a) {
  visit_dtype_complex(a.dtype, [&](auto tag) {
    using O = decltype(tag);
    cpu::unary_loop<O, T>(a.x, *a.out, [](auto v) { return v; });
  });
}
SKIFF_INSTANTIATE_KERNEL(cast, cpu)

template <typename T>
void add_cpu(const KernelContext&, const AddArgs& a) {
  arith<Arith::kAdd, T>(a.x, a.y, *a.out);
}
SKIFF_INSTANTIATE_KERNEL(add, cpu)

template <typename T>
void subtract_cpu(const KernelContext&, const SubtractArgs& a) {
  arith<Arith::kSub, T>(a.x, a.y, *a.out);
}
SKIFF_INSTANTIATE_KERNEL(subtract, cpu)

template <typename T>
void multiply_cpu(const KernelContext&, const MultiplyArgs& a) {
  if constexpr (std::is_same_v<T, bool>) {
    cpu::binary_loop<T, T, T>(a.x, a.y, *a.out, [](bool x, bool y) { return x && y; });
  } else {
    arith<Arith::kMul, T>(a.x, a.y, *a.out);
  }
}
SKIFF_INSTANTIATE_KERNEL(multiply, cpu)

template <typename T>
void divide_cpu(const KernelContext&, const DivideArgs& a) {
  if constexpr (std::is_integral_v<T>) {  // true division into float32
    cpu::binary_loop<float, T, T>(a.x, a.y, *a.out, [](auto x, auto y) {
      return static_cast<float>(static_cast<double>(x) / static_cast<double>(y));
    });
  } else {
    arith<Arith::kDiv, T>(a.x, a.y, *a.out);
  }
}
SKIFF_INSTANTIATE_KERNEL(divide, cpu)

template <typename T>
void floor_divide_cpu(const KernelContext&, const FloorDivideArgs& a) {
  if constexpr (std::is_integral_v<T>) {
    enforce_no_zero_divisor<T>("floor_divide", a.y);
    cpu::binary_loop<T, T, T>(a.x, a.y, *a.out, [](T x, T y) { return int_floor_div<T>(x, y); });
  } else {
    cpu::binary_loop<T, T, T>(a.x, a.y, *a.out,
                              [](C<T> x, C<T> y) { return float_floor_div(x, y); });
  }
}
SKIFF_INSTANTIATE_KERNEL(floor_divide, cpu)

template <typename T>
void remainder_cpu(const KernelContext&, const RemainderArgs& a) {
  if constexpr (std::is_integral_v<T>) {
    enforce_no_zero_divisor<T>("remainder", a.y);
    cpu::binary_loop<T, T, T>(a.x, a.y, *a.out, [](T x, T y) { return int_mod<T>(x, y); });
  } else {
    cpu::binary_loop<T, T, T>(a.x, a.y, *a.out, [](C<T> x, C<T> y) { return float_mod(x, y); });
  }
}
SKIFF_INSTANTIATE_KERNEL(remainder, cpu)

template <typename T>
void pow_cpu(const KernelContext&, const PowArgs& a) {
  const double e = a.y.to_double();
  if constexpr (std::is_integral_v<T>) {
    if (e == std::trunc(e) && std::abs(e) < 9.0e18) {
      const auto k = static_cast<int64_t>(e);
      cpu::unary_loop<T, T>(a.x, *a.out, [k](T v) { return int_pow<T>(v, k); });
    } else {  // a fractional exponent: round the real power (Paddle's llrint)
      cpu::unary_loop<T, T>(a.x, *a.out, [e](T v) {
        const double p = std::pow(static_cast<double>(v), e);
        return std::isfinite(p) ? static_cast<T>(std::llrint(p)) : T(0);
      });
    }
  } else {
    const auto ce = static_cast<C<T>>(e);
    if (e == 2.0) {
      cpu::unary_loop<T, T>(a.x, *a.out, [](C<T> v) { return v * v; });
    } else if (e == 1.0) {
      cpu::unary_loop<T, T>(a.x, *a.out, [](C<T> v) { return v; });
    } else if (e == 0.5) {
      cpu::unary_loop<T, T>(a.x, *a.out, [](C<T> v) { return std::sqrt(v); });
    } else if (e == -1.0) {
      cpu::unary_loop<T, T>(a.x, *a.out, [](C<T> v) { return C<T>(1) / v; });
    } else {
      cpu::unary_loop<T, T>(a.x, *a.out, [ce](C<T> v) { return std::pow(v, ce); });
    }
  }
}
SKIFF_INSTANTIATE_KERNEL(pow, cpu)

template <typename T>
void elementwise_pow_cpu(const KernelContext&, const ElementwisePowArgs& a) {
  if constexpr (std::is_integral_v<T>) {
    cpu::binary_loop<T, T, T>(a.x, a.y, *a.out,
                              [](T x, T y) { return int_pow<T>(x, static_cast<int64_t>(y)); });
  } else {
    cpu::binary_loop<T, T, T>(a.x, a.y, *a.out, [](C<T> x, C<T> y) { return std::pow(x, y); });
  }
}
SKIFF_INSTANTIATE_KERNEL(elementwise_pow, cpu)

// maximum/minimum propagate NaN from either side (numpy's semantics).
template <typename T>
void maximum_cpu(const KernelContext&, const MaximumArgs& a) {
  cpu::binary_loop<T, T, T>(a.x, a.y, *a.out,
                            [](C<T> x, C<T> y) { return (x > y || is_nan(x)) ? x : y; });
}
SKIFF_INSTANTIATE_KERNEL(maximum, cpu)

template <typename T>
void minimum_cpu(const KernelContext&, const MinimumArgs& a) {
  cpu::binary_loop<T, T, T>(a.x, a.y, *a.out,
                            [](C<T> x, C<T> y) { return (x < y || is_nan(x)) ? x : y; });
}
SKIFF_INSTANTIATE_KERNEL(minimum, cpu)

template <typename T>
void equal_cpu(const KernelContext&, const EqualArgs& a) {
  compare<T>(a.x, a.y, *a.out, [](C<T> x, C<T> y) { return x == y; });
}
SKIFF_INSTANTIATE_KERNEL(equal, cpu)

template <typename T>
void not_equal_cpu(const KernelContext&, const NotEqualArgs& a) {
  compare<T>(a.x, a.y, *a.out, [](C<T> x, C<T> y) { return x != y; });
}
SKIFF_INSTANTIATE_KERNEL(not_equal, cpu)

template <typename T>
void less_than_cpu(const KernelContext&, const LessThanArgs& a) {
  compare<T>(a.x, a.y, *a.out, [](C<T> x, C<T> y) { return x < y; });
}
SKIFF_INSTANTIATE_KERNEL(less_than, cpu)

template <typename T>
void less_equal_cpu(const KernelContext&, const LessEqualArgs& a) {
  compare<T>(a.x, a.y, *a.out, [](C<T> x, C<T> y) { return x <= y; });
}
SKIFF_INSTANTIATE_KERNEL(less_equal, cpu)

template <typename T>
void greater_than_cpu(const KernelContext&, const GreaterThanArgs& a) {
  compare<T>(a.x, a.y, *a.out, [](C<T> x, C<T> y) { return x > y; });
}
SKIFF_INSTANTIATE_KERNEL(greater_than, cpu)

template <typename T>
void greater_equal_cpu(const KernelContext&, const GreaterEqualArgs& a) {
  compare<T>(a.x, a.y, *a.out, [](C<T> x, C<T> y) { return x >= y; });
}
SKIFF_INSTANTIATE_KERNEL(greater_equal, cpu)

template <typename T>
void logical_and_cpu(const KernelContext&, const LogicalAndArgs& a) {
  compare<T>(a.x, a.y, *a.out, [](C<T> x, C<T> y) { return (x != C<T>(0)) & (y != C<T>(0)); });
}
SKIFF_INSTANTIATE_KERNEL(logical_and, cpu)

template <typename T>
void logical_or_cpu(const KernelContext&, const LogicalOrArgs& a) {
  compare<T>(a.x, a.y, *a.out, [](C<T> x, C<T> y) { return (x != C<T>(0)) | (y != C<T>(0)); });
}
SKIFF_INSTANTIATE_KERNEL(logical_or, cpu)

template <typename T>
void logical_xor_cpu(const KernelContext&, const LogicalXorArgs& a) {
  compare<T>(a.x, a.y, *a.out, [](C<T> x, C<T> y) { return (x != C<T>(0)) != (y != C<T>(0)); });
}
SKIFF_INSTANTIATE_KERNEL(logical_xor, cpu)

template <typename T>
void logical_not_cpu(const KernelContext&, const LogicalNotArgs& a) {
  cpu::unary_loop<bool, T>(a.x, *a.out, [](C<T> x) { return x == C<T>(0); });
}
SKIFF_INSTANTIATE_KERNEL(logical_not, cpu)

template <typename T>
void bitwise_and_cpu(const KernelContext&, const BitwiseAndArgs& a) {
  cpu::binary_loop<T, T, T>(a.x, a.y, *a.out, [](T x, T y) { return static_cast<T>(x & y); });
}
SKIFF_INSTANTIATE_KERNEL(bitwise_and, cpu)

template <typename T>
void bitwise_or_cpu(const KernelContext&, const BitwiseOrArgs& a) {
  cpu::binary_loop<T, T, T>(a.x, a.y, *a.out, [](T x, T y) { return static_cast<T>(x | y); });
}
SKIFF_INSTANTIATE_KERNEL(bitwise_or, cpu)

template <typename T>
void bitwise_xor_cpu(const KernelContext&, const BitwiseXorArgs& a) {
  cpu::binary_loop<T, T, T>(a.x, a.y, *a.out, [](T x, T y) { return static_cast<T>(x ^ y); });
}
SKIFF_INSTANTIATE_KERNEL(bitwise_xor, cpu)

template <typename T>
void bitwise_not_cpu(const KernelContext&, const BitwiseNotArgs& a) {
  if constexpr (std::is_same_v<T, bool>) {
    cpu::unary_loop<T, T>(a.x, *a.out, [](bool x) { return !x; });
  } else {
    cpu::unary_loop<T, T>(a.x, *a.out, [](T x) { return static_cast<T>(~x); });
  }
}
SKIFF_INSTANTIATE_KERNEL(bitwise_not, cpu)

// out = cond ? x : y over contiguous runs. The condition is read as bytes (bools are 0 or 1):
// GCC vectorizes the select into blends only then; as a branch on the data-dependent condition
// it mispredicted about half the time, 25x slower than a plain binary op.
template <typename T>
void select_run(const bool* cond, const T* __restrict x, const T* __restrict y, T* __restrict out,
                int64_t n) {
  const uint8_t* __restrict c = reinterpret_cast<const uint8_t*>(cond);
  for (int64_t i = 0; i < n; ++i) {
    const T u = x[i], v = y[i];
    out[i] = c[i] != 0 ? u : v;
  }
}

template <typename T>
void where_cpu(const KernelContext&, const WhereArgs& a) {
  const DenseTensor &c = a.condition, &x = a.x, &y = a.y;
  DenseTensor& out = *a.out;
  const Dims& d = out.dims();
  if (c.is_contiguous() && x.is_contiguous() && y.is_contiguous() && c.dims() == d &&
      x.dims() == d && y.dims() == d) {
    const bool* pc = static_cast<const bool*>(c.raw_data());
    const T* px = static_cast<const T*>(x.raw_data());
    const T* py = static_cast<const T*>(y.raw_data());
    T* po = static_cast<T*>(out.raw_data());
    parallel_for(0, out.numel(), kParallelGrain, [&](int64_t b, int64_t e) {
      cpu::run_best_isa([&] { select_run(pc + b, px + b, py + b, po + b, e - b); });
    });
    return;
  }
  cpu::ternary_loop<T, bool, T, T>(c, x, y, out, [](bool k, C<T> u, C<T> v) { return k ? u : v; });
}
SKIFF_INSTANTIATE_KERNEL(where, cpu)

template <typename T>
void clip_cpu(const KernelContext&, const ClipArgs& a) {
  // Bounds become T first (Paddle's min.to<T>()), clamped to T's range for integers.
  auto bound = [](const Scalar& s) -> C<T> {
    if constexpr (std::is_integral_v<T>) {
      const double v = std::clamp(s.to_double(), static_cast<double>(std::numeric_limits<T>::min()),
                                  static_cast<double>(std::numeric_limits<T>::max()));
      return static_cast<T>(v);
    } else {
      return s.to<C<T>>();
    }
  };
  const C<T> lo = bound(a.min), hi = bound(a.max);
  cpu::unary_loop<T, T>(a.x, *a.out, [lo, hi](C<T> v) { return v < lo ? lo : (v > hi ? hi : v); });
}
SKIFF_INSTANTIATE_KERNEL(clip, cpu)

template <typename T>
void lerp_cpu(const KernelContext&, const LerpArgs& a) {
  cpu::ternary_loop<T, T, T, T>(a.x, a.y, a.weight, *a.out,
                                [](C<T> x, C<T> y, C<T> w) { return x + w * (y - x); });
}
SKIFF_INSTANTIATE_KERNEL(lerp, cpu)

template <typename T>
void assign_cpu(const KernelContext&, const AssignArgs& a) {
  if (a.x.is_contiguous()) {
    const char* src = static_cast<const char*>(a.x.raw_data());
    char* dst = static_cast<char*>(a.out->raw_data());
    constexpr int64_t kSize = sizeof(T);
    parallel_for(0, a.x.numel(), kParallelGrain, [&](int64_t b, int64_t e) {
      std::memcpy(dst + b * kSize, src + b * kSize, (e - b) * kSize);
    });
    return;
  }
  cpu::unary_loop<T, T>(a.x, *a.out, [](C<T> v) { return v; });
}
SKIFF_INSTANTIATE_KERNEL(assign, cpu)

template <typename T>
void scale_cpu(const KernelContext&, const ScaleArgs& a) {
  const C<T> s = a.scale.to<C<T>>(), b = a.bias.to<C<T>>();
  if (a.bias_after_scale) {
    cpu::unary_loop<T, T>(a.x, *a.out, [s, b](C<T> v) { return s * v + b; });
  } else {
    cpu::unary_loop<T, T>(a.x, *a.out, [s, b](C<T> v) { return s * (v + b); });
  }
}
SKIFF_INSTANTIATE_KERNEL(scale, cpu)

}  // namespace skiff::ops
