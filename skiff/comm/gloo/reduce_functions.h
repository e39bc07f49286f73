// Element-wise reductions handed to Gloo (its `Func`: out, a, b, n). One template for every
// dtype: 16-bit floats compute in float and round once per step; bool reduces as logic
// (sum/max = or, prod/min = and). Avg is a sum here; the group divides afterwards.
#pragma once

#include <cstddef>
#include <functional>
#include <type_traits>

#include "skiff/base/error.h"
#include "skiff/comm/process_group.h"
#include "skiff/core/dtype.h"
#include "skiff/core/float16.h"

namespace skiff::comm {

using ReduceFn = std::function<void(void*, const void*, const void*, size_t)>;

template <typename T, typename Op>
void reduce_elements(void* out, const void* a, const void* b, size_t n, Op op) {
  using C = std::conditional_t<std::is_same_v<T, bool>, bool, compute_t<T>>;
  auto* o = static_cast<T*>(out);
  const auto* x = static_cast<const T*>(a);
  const auto* y = static_cast<const T*>(b);
  for (size_t i = 0; i < n; ++i) {
    o[i] = static_cast<T>(op(static_cast<C>(x[i]), static_cast<C>(y[i])));
  }
}

template <typename T>
ReduceFn reduce_function(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum:
    case ReduceOp::kAvg:
      return [](void* o, const void* a, const void* b, size_t n) {
        reduce_elements<T>(o, a, b, n, [](auto x, auto y) {
          if constexpr (std::is_same_v<decltype(x), bool>)
            return x || y;
          else
            return x + y;
        });
      };
    case ReduceOp::kProd:
      return [](void* o, const void* a, const void* b, size_t n) {
        reduce_elements<T>(o, a, b, n, [](auto x, auto y) {
          if constexpr (std::is_same_v<decltype(x), bool>)
            return x && y;
          else
            return x * y;
        });
      };
    case ReduceOp::kMax:
      return [](void* o, const void* a, const void* b, size_t n) {
        reduce_elements<T>(o, a, b, n, [](auto x, auto y) { return x < y ? y : x; });
      };
    case ReduceOp::kMin:
      return [](void* o, const void* a, const void* b, size_t n) {
        reduce_elements<T>(o, a, b, n, [](auto x, auto y) { return y < x ? y : x; });
      };
  }
  SKIFF_THROW(kInvalidArgument, "reduce", "op", "SUM, AVG, MAX, MIN or PROD", static_cast<int>(op));
}

inline ReduceFn reduce_function(DType dtype, ReduceOp op) {
  return visit_dtype(dtype, [&](auto v) { return reduce_function<decltype(v)>(op); });
}

/// Divides n elements in place by `count` (the AVG step after a sum).
inline void divide_elements(void* data, DType dtype, size_t n, int count) {
  visit_dtype(dtype, [&](auto v) {
    using T = decltype(v);
    if constexpr (std::is_same_v<T, bool>) {
      return;
    } else {
      using C = compute_t<T>;
      auto* p = static_cast<T*>(data);
      for (size_t i = 0; i < n; ++i)
        p[i] = static_cast<T>(static_cast<C>(p[i]) / static_cast<C>(count));
    }
  });
}

}  // namespace skiff::comm
