#include "skiff/ops/meta/statistics_meta.h"

#include <limits>
#include <string>

#include "skiff/base/error.h"
#include "skiff/base/str.h"

namespace skiff::ops::meta {

namespace {

int axis_of(std::string_view op, int64_t axis, int rank) {
  return normalize_axis(axis, rank, std::string(op).c_str(), "axis");
}

}  // namespace

void cum_extreme_meta(std::string_view op, const TensorMeta& x, int64_t axis, DType dtype,
                      TensorMeta* out, TensorMeta* indices) {
  SKIFF_ENFORCE(dtype == DType::kInt32 || dtype == DType::kInt64, kTypeError, op, "dtype",
                "int32 or int64", dtype);
  axis_of(op, axis, x.dims.size());
  if (dtype == DType::kInt32 && !x.dims.empty()) {
    const int64_t n = x.dims[axis_of(op, axis, x.dims.size())];
    SKIFF_ENFORCE(n <= std::numeric_limits<int32_t>::max(), kInvalidArgument, op, "dtype",
                  "int64 for an axis longer than INT32_MAX", dtype);
  }
  *out = x;
  *indices = {dtype, x.dims};
}

void logcumsumexp_meta(std::string_view op, const TensorMeta& x, int64_t axis, bool flatten, bool,
                       bool, TensorMeta* out) {
  SKIFF_ENFORCE(is_floating(x.dtype), kTypeError, op, "x", "a floating point tensor",
                x.dtype);
  if (flatten) {
    *out = {x.dtype, Dims{x.dims.numel()}};
    return;
  }
  axis_of(op, axis, x.dims.size());
  *out = x;
}

void mode_meta(std::string_view op, const TensorMeta& x, int64_t axis, bool keepdim,
               TensorMeta* out, TensorMeta* indices) {
  Dims d = x.dims;
  if (!d.empty()) {
    const int a = axis_of(op, axis, d.size());
    SKIFF_ENFORCE(d[a] > 0, kInvalidArgument, op, "x", str("a non-empty axis ", a), x.dims);
    if (keepdim) {
      d[a] = 1;
    } else {
      d.erase(a);
    }
  } else {
    axis_of(op, axis, 0);
  }
  *out = {x.dtype, d};
  *indices = {DType::kInt64, d};
}

void searchsorted_meta(std::string_view op, const TensorMeta& sorted_sequence,
                       const TensorMeta& values, bool out_int32, bool, TensorMeta* out) {
  const Dims& s = sorted_sequence.dims;
  const Dims& v = values.dims;
  SKIFF_ENFORCE(!s.empty(), kInvalidArgument, op, "sorted_sequence", "a tensor of rank >= 1", s);
  if (s.size() != 1) {
    bool match = s.size() == v.size();
    for (int i = 0; match && i + 1 < s.size(); ++i) match = s[i] == v[i];
    SKIFF_ENFORCE(match, kInvalidArgument, op, "sorted_sequence",
                  str("1-D or the leading dims of values ", v), s);
  }
  if (out_int32) {
    SKIFF_ENFORCE(s[s.size() - 1] < std::numeric_limits<int32_t>::max(), kInvalidArgument, op,
                  "out_int32", "false for rows longer than INT32_MAX - 1", s);
  }
  *out = {out_int32 ? DType::kInt32 : DType::kInt64, v};
}

void poisson_meta(std::string_view op, const TensorMeta& x, TensorMeta* out) {
  SKIFF_ENFORCE(is_floating(x.dtype), kTypeError, op, "x", "a floating point tensor",
                x.dtype);
  *out = x;
}

}  // namespace skiff::ops::meta
