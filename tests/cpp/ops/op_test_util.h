// Helpers for operator tests: tensors from values, random inputs in a domain, conversion to
// float64 for comparison, and the per-dtype tolerances all op tests share.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "skiff/core/dense_tensor.h"

namespace skiff::testing {

/// A contiguous CPU tensor of `dtype` holding `values` (converted).
DenseTensor make_tensor(const Dims& dims, DType dtype, const std::vector<double>& values);
/// Every element as double (any dtype, any strides).
std::vector<double> to_doubles(const DenseTensor& t);

/// Value ranges for generated inputs.
enum class Domain {
  kAny,       // uniform in [-2, 2]
  kPositive,  // uniform in [0.1, 2]
  kUnit,      // uniform in [-0.9, 0.9] (asin, atanh)
  kNonZero,   // |v| in [0.5, 2] with random sign (divisors)
  kSmallInt,  // integers in [-5, 5] (exact in every dtype)
};

/// Random values of `dtype` in `domain`; integer dtypes draw small integers, bool draws 0/1.
DenseTensor random_tensor(const Dims& dims, DType dtype, Domain domain, std::mt19937_64& rng);

/// The same values as `t` but with non-contiguous strides (a transposed or strided buffer).
DenseTensor noncontiguous_copy(const DenseTensor& t);

struct Tolerance {
  double rtol;
  double atol;
};
/// Tolerance for comparing a result of `dtype` with a float64 reference.
Tolerance tolerance_for(DType dtype);

/// Empty string if all elements match within tolerance (NaNs must match NaNs, infs must be equal);
/// otherwise a message naming the first mismatching index and both values.
std::string compare(const std::vector<double>& got, const std::vector<double>& want, Tolerance tol);

}  // namespace skiff::testing
