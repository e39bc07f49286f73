#include "skiff/ops/meta/elementwise_meta.h"

#include "skiff/base/error.h"

namespace skiff::ops::meta {

Dims broadcast_dims(std::string_view op, const Dims& a, const Dims& b, std::string_view b_name,
                    std::string_view a_name) {
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
      SKIFF_THROW(kInvalidArgument, op, b_name,
                  str("a shape broadcastable with ", a_name, " ", a, " (dim ", i, ")"), b);
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
  *out = {is_differentiable(d) ? d : DType::kFloat32, broadcast_dims(op, x.dims, y.dims)};
}

namespace {
void enforce_bitwise_dtype(std::string_view op, const char* arg, DType d) {
  SKIFF_ENFORCE(d == DType::kBool || is_integral(d), kTypeError, op, arg,
                "a bool or integer tensor", d);
}
}  // namespace

void bitwise_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y, TensorMeta* out) {
  enforce_bitwise_dtype(op, "x", x.dtype);
  enforce_bitwise_dtype(op, "y", y.dtype);
  binary_meta(op, x, y, out);
}

void bitwise_not_meta(std::string_view op, const TensorMeta& x, TensorMeta* out) {
  enforce_bitwise_dtype(op, "x", x.dtype);
  *out = x;
}

void where_meta(std::string_view op, const TensorMeta& condition, const TensorMeta& x,
                const TensorMeta& y, TensorMeta* out) {
  SKIFF_ENFORCE(condition.dtype == DType::kBool, kTypeError, op, "condition", "a bool tensor",
                condition.dtype);
  SKIFF_ENFORCE(x.dtype == y.dtype, kTypeError, op, "y", str("dtype ", x.dtype), y.dtype);
  const Dims d = broadcast_dims(op, condition.dims, x.dims, "x", "condition");
  *out = {x.dtype, broadcast_dims(op, d, y.dims, "y", "condition and x")};
}

void clip_meta(std::string_view op, const TensorMeta& x, const Scalar& min, const Scalar& max,
               TensorMeta* out) {
  SKIFF_ENFORCE(min.to_double() <= max.to_double(), kInvalidArgument, op, "max",
                str("a value >= min (", min, ")"), max);
  *out = x;
}

void lerp_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y,
               const TensorMeta& weight, TensorMeta* out) {
  SKIFF_ENFORCE(is_floating(x.dtype) || is_complex(x.dtype), kTypeError, op, "x",
                "a floating-point or complex tensor", x.dtype);
  SKIFF_ENFORCE(x.dtype == y.dtype && x.dtype == weight.dtype, kTypeError, op, "weight",
                str("dtype ", x.dtype), weight.dtype);
  const Dims d = broadcast_dims(op, x.dims, y.dims);
  *out = {x.dtype, broadcast_dims(op, d, weight.dims, "weight", "x and y")};
}

void cast_meta(std::string_view op, const TensorMeta& x, DType dtype, TensorMeta* out) {
  SKIFF_ENFORCE(dtype != DType::kUndefined, kTypeError, op, "dtype", "a defined dtype",
                "undefined");
  *out = {dtype, x.dims};
}

void reduce_as_meta(std::string_view op, const TensorMeta& x, const TensorMeta& target,
                    TensorMeta* out) {
  const Dims b = broadcast_dims(op, x.dims, target.dims);
  SKIFF_ENFORCE(b == x.dims, kInvalidArgument, op, "target",
                str("a shape that broadcasts to x's ", x.dims), target.dims);
  *out = {x.dtype, target.dims};
}

}  // namespace skiff::ops::meta
