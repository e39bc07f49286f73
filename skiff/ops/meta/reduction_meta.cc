#include "skiff/ops/meta/reduction_meta.h"

#include <string>

#include "skiff/base/error.h"

namespace skiff::ops::meta {

namespace {

void require_float(std::string_view op, DType d) {
  SKIFF_ENFORCE(is_floating(d), kTypeError, op, "x", "a floating-point tensor", d);
}

}  // namespace

std::vector<bool> reduce_mask(std::string_view op, int rank, const std::vector<int64_t>& axis) {
  const std::string name(op);
  std::vector<bool> mask(rank, axis.empty());
  for (int64_t a : axis) {
    const int i = normalize_axis(a, rank, name.c_str(), "axis");
    if (rank == 0) continue;
    SKIFF_ENFORCE(!mask[i], kInvalidArgument, name.c_str(), "axis", "distinct axes",
                  str("axis ", a, " repeated"));
    mask[i] = true;
  }
  return mask;
}

Dims reduced_dims(const Dims& dims, const std::vector<bool>& mask, bool keepdim) {
  Dims out;
  for (int i = 0; i < dims.size(); ++i) {
    if (!mask[i]) {
      out.push_back(dims[i]);
    } else if (keepdim) {
      out.push_back(1);
    }
  }
  return out;
}

void reduce_meta(std::string_view op, const TensorMeta& x, const std::vector<int64_t>& axis,
                 bool keepdim, TensorMeta* out) {
  *out = {x.dtype, reduced_dims(x.dims, reduce_mask(op, x.dims.size(), axis), keepdim)};
}

void reduce_nonempty_meta(std::string_view op, const TensorMeta& x,
                          const std::vector<int64_t>& axis, bool keepdim, TensorMeta* out) {
  const auto mask = reduce_mask(op, x.dims.size(), axis);
  int64_t count = 1;
  for (int i = 0; i < x.dims.size(); ++i) count *= mask[i] ? x.dims[i] : 1;
  *out = {x.dtype, reduced_dims(x.dims, mask, keepdim)};
  SKIFF_ENFORCE(count != 0 || out->dims.numel() == 0, kInvalidArgument, op, "x",
                "a non-empty reduction (max/min have no identity)",
                str("reduced dims of size 0 in shape ", x.dims));
}

void reduce_bool_meta(std::string_view op, const TensorMeta& x, const std::vector<int64_t>& axis,
                      bool keepdim, TensorMeta* out) {
  reduce_meta(op, x, axis, keepdim, out);
  out->dtype = DType::kBool;
}

void sum_meta(std::string_view op, const TensorMeta& x, const std::vector<int64_t>& axis,
              DType dtype, bool keepdim, TensorMeta* out) {
  reduce_meta(op, x, axis, keepdim, out);
  if (dtype != DType::kUndefined) {
    out->dtype = dtype;
  } else if (x.dtype == DType::kBool || x.dtype == DType::kInt32) {
    out->dtype = DType::kInt64;
  }
}

void prod_meta(std::string_view op, const TensorMeta& x, const std::vector<int64_t>& axis,
               bool keepdim, DType dtype, TensorMeta* out) {
  reduce_meta(op, x, axis, keepdim, out);
  if (dtype != DType::kUndefined) out->dtype = dtype;
}

void moment_meta(std::string_view op, const TensorMeta& x, const std::vector<int64_t>& axis, bool,
                 bool keepdim, TensorMeta* out) {
  require_float(op, x.dtype);
  reduce_meta(op, x, axis, keepdim, out);
}

void p_norm_meta(std::string_view op, const TensorMeta& x, float, int64_t axis, float, bool keepdim,
                 bool asvector, TensorMeta* out) {
  require_float(op, x.dtype);
  if (asvector) {
    reduce_meta(op, x, {}, keepdim, out);
    return;
  }
  reduce_meta(op, x, {axis}, keepdim, out);
}

void arg_reduce_meta(std::string_view op, const TensorMeta& x, const Scalar& axis, bool keepdim,
                     bool flatten, DType dtype, TensorMeta* out) {
  const std::string name(op);
  SKIFF_ENFORCE(dtype == DType::kInt64 || dtype == DType::kInt32, kTypeError, name.c_str(), "dtype",
                "int32 or int64", dtype);
  SKIFF_ENFORCE(!axis.is_float(), kTypeError, name.c_str(), "axis", "an integer axis", axis);
  if (flatten) {
    SKIFF_ENFORCE(x.dims.numel() != 0, kInvalidArgument, name.c_str(), "x",
                  "a non-empty tensor (no identity)", str("shape ", x.dims));
    *out = {dtype, keepdim ? Dims::filled(x.dims.size(), 1) : Dims{}};
    return;
  }
  // Like max: only a reduction that produces elements from an empty axis is refused, so
  // argmax of [0, 3] along axis 1 is an empty [0] result.
  reduce_nonempty_meta(op, x, {axis.to<int64_t>()}, keepdim, out);
  out->dtype = dtype;
}

void cumsum_meta(std::string_view op, const TensorMeta& x, const Scalar& axis, bool flatten, bool,
                 bool, TensorMeta* out) {
  const std::string name(op);
  SKIFF_ENFORCE(!axis.is_float(), kTypeError, name.c_str(), "axis", "an integer axis", axis);
  if (flatten) {
    *out = {x.dtype, Dims{x.dims.numel()}};
    return;
  }
  normalize_axis(axis.to<int64_t>(), x.dims.size(), name.c_str(), "axis");
  *out = x;
}

void cumprod_meta(std::string_view op, const TensorMeta& x, int64_t dim, bool, bool,
                  TensorMeta* out) {
  normalize_axis(dim, x.dims.size(), std::string(op).c_str(), "dim");
  *out = x;
}

}  // namespace skiff::ops::meta
