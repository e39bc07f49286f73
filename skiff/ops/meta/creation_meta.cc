#include "skiff/ops/meta/creation_meta.h"

#include <cmath>

#include "skiff/base/error.h"
#include "skiff/core/shape_math.h"

namespace skiff::ops::meta {

namespace {

// A user's shape: rank, non-negative dims, and an element count and byte size that fit
// (overflow-checked in dims.h), so a huge shape fails here naming the op and 'shape'.
Dims checked_shape(std::string_view op, const std::vector<int64_t>& shape, DType dtype) {
  SKIFF_ENFORCE(shape.size() <= static_cast<size_t>(kMaxRank), kInvalidArgument, op, "shape",
                str("at most ", kMaxRank, " dims"), shape);
  const Dims dims(shape);
  checked_nbytes(dims, dtype_size(dtype), op, "shape");
  return dims;
}

DType or_default(DType dtype, DType fallback) {
  return dtype == DType::kUndefined ? fallback : dtype;
}

void enforce_float_dtype(std::string_view op, DType dtype) {
  SKIFF_ENFORCE(is_floating(dtype), kTypeError, op, "dtype", "a floating-point dtype", dtype);
}

}  // namespace

void shape_dtype_meta(std::string_view op, const std::vector<int64_t>& shape, DType dtype,
                      TensorMeta* out) {
  const DType d = or_default(dtype, DType::kFloat32);
  *out = {d, checked_shape(op, shape, d)};
}

void like_meta(std::string_view, const TensorMeta& x, DType dtype, TensorMeta* out) {
  *out = {or_default(dtype, x.dtype), x.dims};
}

int64_t arange_size(double start, double end, double step) {
  const double n = std::ceil((end - start) / step);
  return n > 0 ? static_cast<int64_t>(n) : 0;
}

void arange_meta(std::string_view op, const Scalar& start, const Scalar& end, const Scalar& step,
                 DType dtype, TensorMeta* out) {
  SKIFF_ENFORCE(step.to_double() != 0, kInvalidArgument, op, "step", "a non-zero step", step);
  for (const Scalar* s : {&start, &end, &step}) {
    SKIFF_ENFORCE(std::isfinite(s->to_double()), kInvalidArgument, op,
                  s == &start ? "start"
                  : s == &end ? "end"
                              : "step",
                  "a finite value", *s);
  }
  const bool all_int = !start.is_float() && !end.is_float() && !step.is_float();
  const DType d = or_default(dtype, all_int ? DType::kInt64 : DType::kFloat32);
  SKIFF_ENFORCE(d != DType::kBool, kTypeError, op, "dtype", "a numeric dtype", d);
  *out = {d, Dims{arange_size(start.to_double(), end.to_double(), step.to_double())}};
}

void linspace_meta(std::string_view op, const Scalar&, const Scalar&, int64_t num, DType dtype,
                   TensorMeta* out) {
  SKIFF_ENFORCE(num >= 0, kInvalidArgument, op, "num", ">= 0", num);
  const DType d = or_default(dtype, DType::kFloat32);
  SKIFF_ENFORCE(d != DType::kBool, kTypeError, op, "dtype", "a numeric dtype", d);
  *out = {d, Dims{num}};
}

void eye_meta(std::string_view op, int64_t num_rows, int64_t num_columns, DType dtype,
              TensorMeta* out) {
  SKIFF_ENFORCE(num_rows >= 0, kInvalidArgument, op, "num_rows", ">= 0", num_rows);
  SKIFF_ENFORCE(num_columns >= -1, kInvalidArgument, op, "num_columns", ">= 0 (or -1: num_rows)",
                num_columns);
  const DType d = or_default(dtype, DType::kFloat32);
  *out = {d, Dims{num_rows, num_columns == -1 ? num_rows : num_columns}};
  checked_nbytes(out->dims, dtype_size(d), op, "num_rows");
}

void uniform_meta(std::string_view op, const std::vector<int64_t>& shape, DType dtype, double min,
                  double max, int64_t, TensorMeta* out) {
  const DType d = or_default(dtype, DType::kFloat32);
  enforce_float_dtype(op, d);
  SKIFF_ENFORCE(min <= max, kInvalidArgument, op, "max", str(">= min (", min, ")"), max);
  *out = {d, checked_shape(op, shape, d)};
}

void gaussian_meta(std::string_view op, const std::vector<int64_t>& shape, double, double std,
                   int64_t, DType dtype, TensorMeta* out) {
  const DType d = or_default(dtype, DType::kFloat32);
  enforce_float_dtype(op, d);
  SKIFF_ENFORCE(std >= 0, kInvalidArgument, op, "std", ">= 0", std);
  *out = {d, checked_shape(op, shape, d)};
}

void randint_meta(std::string_view op, int64_t low, int64_t high, const std::vector<int64_t>& shape,
                  DType dtype, TensorMeta* out) {
  const DType d = or_default(dtype, DType::kInt64);
  SKIFF_ENFORCE(d == DType::kInt32 || d == DType::kInt64, kTypeError, op, "dtype", "int32 or int64",
                d);
  SKIFF_ENFORCE(low < high, kInvalidArgument, op, "high", str("> low (", low, ")"), high);
  if (d == DType::kInt32) {
    SKIFF_ENFORCE(low >= INT32_MIN && high - 1 <= INT32_MAX, kOutOfRange, op, "high",
                  "a range that fits int32", str("[", low, ", ", high, ")"));
  }
  *out = {d, checked_shape(op, shape, d)};
}

void randperm_meta(std::string_view op, int64_t n, DType dtype, TensorMeta* out) {
  SKIFF_ENFORCE(n >= 0, kInvalidArgument, op, "n", ">= 0", n);
  const DType d = or_default(dtype, DType::kInt64);
  const bool ok =
      d == DType::kInt32 || d == DType::kInt64 || d == DType::kFloat32 || d == DType::kFloat64;
  SKIFF_ENFORCE(ok, kTypeError, op, "dtype", "int32, int64, float32 or float64", d);
  *out = {d, Dims{n}};
}

}  // namespace skiff::ops::meta
