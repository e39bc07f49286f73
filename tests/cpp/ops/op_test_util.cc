#include "op_test_util.h"

#include <cmath>
#include <sstream>

#include "skiff/core/complex_views.h"
#include "skiff/core/views.h"

namespace skiff::testing {

DenseTensor make_tensor(const Dims& dims, DType dtype, const std::vector<double>& values) {
  DenseTensor t = DenseTensor::empty(dims, dtype);
  if (is_complex(dtype)) {  // values: real parts, or (real, imaginary) pairs
    const bool pairs = static_cast<int64_t>(values.size()) == 2 * t.numel();
    SKIFF_CHECK(pairs || static_cast<int64_t>(values.size()) == t.numel());
    visit_dtype_complex(dtype, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (is_complex_v<T>) {
        using R = typename T::value_type;
        T* p = static_cast<T*>(t.raw_data());
        for (int64_t i = 0; i < t.numel(); ++i) {
          p[i] = pairs ? T(static_cast<R>(values[2 * i]), static_cast<R>(values[2 * i + 1]))
                       : T(static_cast<R>(values[i]), R(0));
        }
      }
    });
    return t;
  }
  SKIFF_CHECK(static_cast<int64_t>(values.size()) == t.numel());
  visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* p = static_cast<T*>(t.raw_data());
    for (size_t i = 0; i < values.size(); ++i) {
      if constexpr (std::is_same_v<T, bool>)
        p[i] = values[i] != 0;
      else
        p[i] = static_cast<T>(values[i]);
    }
  });
  return t;
}

std::vector<double> to_doubles(const DenseTensor& t) {
  DenseTensor c = t.contiguous();
  if (is_complex(c.dtype())) return to_doubles(view_as_real(c));  // (real, imaginary) pairs
  std::vector<double> out(c.numel());
  visit_dtype(c.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* p = static_cast<const T*>(c.raw_data());
    for (size_t i = 0; i < out.size(); ++i) {
      out[i] = static_cast<double>(static_cast<compute_t<T>>(p[i]));
    }
  });
  return out;
}

DenseTensor random_tensor(const Dims& dims, DType dtype, Domain domain, std::mt19937_64& rng) {
  if (is_complex(dtype)) {  // real and imaginary parts drawn from the domain's real values
    Dims pair = dims;
    pair.push_back(2);
    return make_tensor(dims, dtype,
                       to_doubles(random_tensor(pair, complex_to_real(dtype), domain, rng)));
  }
  std::vector<double> v(dims.numel());
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (auto& x : v) {
    if (dtype == DType::kBool) {
      x = unit(rng) < 0.5 ? 0 : 1;
      continue;
    }
    if (is_integral(dtype) || domain == Domain::kSmallInt) {
      const int lo = domain == Domain::kPositive || dtype == DType::kUInt8 ? 1 : -5;
      x = lo + static_cast<int>(unit(rng) * (6 - lo));
      if (domain == Domain::kNonZero && x == 0) x = 1;
      continue;
    }
    switch (domain) {
      case Domain::kAny:
        x = -2 + 4 * unit(rng);
        break;
      case Domain::kPositive:
        x = 0.1 + 1.9 * unit(rng);
        break;
      case Domain::kUnit:
        x = -0.9 + 1.8 * unit(rng);
        break;
      case Domain::kNonZero:
        x = (0.5 + 1.5 * unit(rng)) * (unit(rng) < 0.5 ? -1 : 1);
        break;
      case Domain::kSmallInt:
        break;
    }
  }
  return make_tensor(dims, dtype, v);
}

DenseTensor noncontiguous_copy(const DenseTensor& t) {
  if (t.numel() <= 1) return t;
  // Allocate with the last dim doubled, write values into the even positions, and return the
  // strided view over them: same values, stride 2 in the innermost dim.
  Dims big = t.dims();
  if (big.empty()) return t;
  big[big.size() - 1] *= 2;
  DenseTensor buffer = DenseTensor::empty(big, t.dtype(), t.place());
  DenseTensor view = view_slice(buffer, -1, 0, big.back(), 2);
  view.copy_from(t);
  return view;
}

Tolerance tolerance_for(DType dtype) {
  switch (dtype) {
    case DType::kFloat64:
    case DType::kComplex128:
      return {1e-10, 1e-12};
    case DType::kFloat32:
      return {2e-5, 2e-6};
    case DType::kComplex64:  // each complex product and sum is 2-4 float ones: more rounding
      return {5e-5, 2e-5};
    case DType::kBFloat16:
      return {1.6e-2, 1e-2};
    case DType::kFloat16:
      return {2e-3, 1e-3};
    default:
      return {0, 0};
  }
}

std::string compare(const std::vector<double>& got, const std::vector<double>& want,
                    Tolerance tol) {
  if (got.size() != want.size()) {
    return str("size mismatch: got ", got.size(), " elements, want ", want.size());
  }
  for (size_t i = 0; i < got.size(); ++i) {
    const double g = got[i], w = want[i];
    if (std::isnan(w) || std::isnan(g)) {
      if (std::isnan(w) && std::isnan(g)) continue;
    } else if (std::isinf(w) || std::isinf(g)) {
      if (g == w) continue;
    } else if (std::abs(g - w) <= tol.atol + tol.rtol * std::abs(w)) {
      continue;
    }
    std::ostringstream os;
    os.precision(17);
    os << "element " << i << ": got " << g << ", want " << w << " (rtol " << tol.rtol << ", atol "
       << tol.atol << ")";
    return os.str();
  }
  return {};
}

}  // namespace skiff::testing
