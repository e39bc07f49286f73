#include "skiff/ops/meta/elementwise_meta.h"

#include "skiff/base/error.h"

namespace skiff::ops::meta {

Dims broadcast_dims(std::string_view op, const Dims& a, const Dims& b) {
  const int rank = std::max(a.size(), b.size());
  Dims out = Dims::filled(rank, 1);
  for (int i = 0; i < rank; ++i) {
    const int ia = i - (rank - a.size()), ib = i - (rank - b.size());
    const int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
    if (da == db || db == 1) {
      out[i] = da;
    } else if (da == 1) {
      out[i] = db;
    } else if (da == kDynamicDim || db == kDynamicDim) {
      out[i] = std::max(da, db);  // the known dim wins; a mismatch surfaces at run time
    } else {
      SKIFF_THROW(kInvalidArgument, op, "y",
                  str("a shape broadcastable with x ", a, " (dim ", i, ")"), b);
    }
  }
  return out;
}

void unchanged_meta(std::string_view, const TensorMeta& x, TensorMeta* out) { *out = x; }

void unary_to_dtype_meta(std::string_view, const TensorMeta& x, DType dtype, TensorMeta* out) {
  *out = {dtype, x.dims};
}

void unary_bool_meta(std::string_view, const TensorMeta& x, TensorMeta* out) {
  *out = {DType::kBool, x.dims};
}

void unary_float_meta(std::string_view, const TensorMeta& x, TensorMeta* out) {
  *out = {is_floating(x.dtype) ? x.dtype : DType::kFloat32, x.dims};
}

void binary_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y, TensorMeta* out) {
  *out = {promote_types(x.dtype, y.dtype), broadcast_dims(op, x.dims, y.dims)};
}

void compare_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y, TensorMeta* out) {
  *out = {DType::kBool, broadcast_dims(op, x.dims, y.dims)};
}

void binary_float_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y,
                       TensorMeta* out) {
  const DType d = promote_types(x.dtype, y.dtype);
  *out = {is_floating(d) ? d : DType::kFloat32, broadcast_dims(op, x.dims, y.dims)};
}

void cast_meta(std::string_view op, const TensorMeta& x, DType dtype, TensorMeta* out) {
  SKIFF_ENFORCE(dtype != DType::kUndefined, kTypeError, op, "dtype", "a defined dtype",
                "undefined");
  *out = {dtype, x.dims};
}

}  // namespace skiff::ops::meta
