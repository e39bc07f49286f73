// A typed scalar attribute (Paddle's `Scalar`): fill values, clip bounds, pow exponents. It keeps
// the kind it was given (bool, integer or float) so `full(shape, 3)` and `full(shape, 3.5)` can
// pick different default dtypes, and converts losslessly where the target type can hold it.
#pragma once

#include <cstdint>
#include <ostream>
#include <type_traits>

#include "skiff/core/dtype.h"

namespace skiff {

class Scalar {
 public:
  Scalar() : kind_(ScalarKind::kFloat), f_(0.0) {}
  Scalar(bool v) : kind_(ScalarKind::kBool), i_(v) {}  // NOLINT: implicit by design
  template <typename T>
  requires(std::is_integral_v<T> && !std::is_same_v<T, bool>) Scalar(T v)
      : kind_(ScalarKind::kInt), i_(static_cast<int64_t>(v)) {}  // NOLINT
  Scalar(float v) : kind_(ScalarKind::kFloat), f_(v) {}          // NOLINT
  Scalar(double v) : kind_(ScalarKind::kFloat), f_(v) {}         // NOLINT
  Scalar(float16 v) : Scalar(static_cast<float>(v)) {}           // NOLINT
  Scalar(bfloat16 v) : Scalar(static_cast<float>(v)) {}          // NOLINT

  ScalarKind kind() const { return kind_; }
  bool is_float() const { return kind_ == ScalarKind::kFloat; }

  template <typename T>
  T to() const {
    if (kind_ == ScalarKind::kFloat) {
      if constexpr (std::is_same_v<T, bool>)
        return f_ != 0.0;
      else
        return static_cast<T>(f_);
    }
    if constexpr (std::is_same_v<T, bool>)
      return i_ != 0;
    else if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>)
      return T(i_);
    else
      return static_cast<T>(i_);
  }
  double to_double() const { return kind_ == ScalarKind::kFloat ? f_ : static_cast<double>(i_); }

  friend bool operator==(const Scalar& a, const Scalar& b) {
    if (a.kind_ != b.kind_) return false;
    return a.kind_ == ScalarKind::kFloat ? a.f_ == b.f_ : a.i_ == b.i_;
  }

 private:
  ScalarKind kind_;
  union {
    int64_t i_;
    double f_;
  };
};

std::ostream& operator<<(std::ostream& os, const Scalar& s);

}  // namespace skiff
