#include "skiff/ops/meta/linalg_meta.h"

#include "skiff/base/error.h"
#include "skiff/ops/meta/elementwise_meta.h"

namespace skiff::ops::meta {

namespace {
void check_floating(std::string_view op, const char* arg, const TensorMeta& t) {
  SKIFF_ENFORCE(is_floating(t.dtype), kTypeError, op, arg,
                "a floating dtype (float32, float64, bfloat16, float16)", t.dtype);
}
void check_same_dtype(std::string_view op, const char* arg, const TensorMeta& t, DType want) {
  SKIFF_ENFORCE(t.dtype == want, kTypeError, op, arg, str("dtype ", want, " (as x)"), t.dtype);
}
// Equal or dynamic.
bool dims_match(int64_t a, int64_t b) { return a == b || a == kDynamicDim || b == kDynamicDim; }
}  // namespace

void matmul_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y, bool transpose_x,
                 bool transpose_y, TensorMeta* out) {
  SKIFF_ENFORCE(is_differentiable(x.dtype), kTypeError, op, "x",
                "a floating dtype (float32, float64, bfloat16, float16) or a complex dtype "
                "(complex64, complex128)",
                x.dtype);
  check_same_dtype(op, "y", y, x.dtype);
  SKIFF_ENFORCE(x.dims.size() >= 1, kInvalidArgument, op, "x", "a tensor of rank >= 1", x.dims);
  SKIFF_ENFORCE(y.dims.size() >= 1, kInvalidArgument, op, "y", "a tensor of rank >= 1", y.dims);
  const int rx = x.dims.size(), ry = y.dims.size();
  const bool tx = transpose_x && rx >= 2, ty = transpose_y && ry >= 2;
  const int64_t m = rx == 1 ? 1 : x.dims[tx ? rx - 1 : rx - 2];
  const int64_t kx = rx == 1 ? x.dims[0] : x.dims[tx ? rx - 2 : rx - 1];
  const int64_t ky = ry == 1 ? y.dims[0] : y.dims[ty ? ry - 1 : ry - 2];
  const int64_t n = ry == 1 ? 1 : y.dims[ty ? ry - 2 : ry - 1];
  SKIFF_ENFORCE(dims_match(kx, ky), kInvalidArgument, op, "y",
                str("a contraction dim equal to x's (", kx, ") for x ", x.dims, " and y ", y.dims,
                    transpose_x ? " transpose_x" : "", transpose_y ? " transpose_y" : ""),
                ky);
  Dims bx, by;
  for (int i = 0; i + 2 < rx; ++i) bx.push_back(x.dims[i]);
  for (int i = 0; i + 2 < ry; ++i) by.push_back(y.dims[i]);
  Dims od = broadcast_dims(op, bx, by);
  if (rx >= 2) od.push_back(m);
  if (ry >= 2) od.push_back(n);
  *out = {x.dtype, od};
}

void bmm_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y, TensorMeta* out) {
  check_floating(op, "x", x);
  check_same_dtype(op, "y", y, x.dtype);
  SKIFF_ENFORCE(x.dims.size() == 3, kInvalidArgument, op, "x", "a 3-D tensor [B, M, K]", x.dims);
  SKIFF_ENFORCE(y.dims.size() == 3, kInvalidArgument, op, "y", "a 3-D tensor [B, K, N]", y.dims);
  SKIFF_ENFORCE(dims_match(x.dims[0], y.dims[0]), kInvalidArgument, op, "y",
                str("batch size ", x.dims[0], " (as x ", x.dims, ")"), y.dims);
  SKIFF_ENFORCE(dims_match(x.dims[2], y.dims[1]), kInvalidArgument, op, "y",
                str("dim 1 equal to x's dim 2 (", x.dims[2], ") for x ", x.dims), y.dims);
  *out = {x.dtype, Dims{x.dims[0], x.dims[1], y.dims[2]}};
}

void dot_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y, TensorMeta* out) {
  SKIFF_ENFORCE(x.dtype != DType::kBool, kTypeError, op, "x", "a numeric dtype", x.dtype);
  check_same_dtype(op, "y", y, x.dtype);
  SKIFF_ENFORCE(x.dims.size() == 1 || x.dims.size() == 2, kInvalidArgument, op, "x",
                "a 1-D or 2-D tensor", x.dims);
  SKIFF_ENFORCE(x.dims == y.dims, kInvalidArgument, op, "y", str("the shape of x ", x.dims),
                y.dims);
  *out = {x.dtype, x.dims.size() == 1 ? Dims{} : Dims{x.dims[0]}};
}

void outer_meta(std::string_view op, const TensorMeta& x, const TensorMeta& y, TensorMeta* out) {
  SKIFF_ENFORCE(x.dtype != DType::kBool, kTypeError, op, "x", "a numeric dtype", x.dtype);
  check_same_dtype(op, "y", y, x.dtype);
  *out = {x.dtype, Dims{x.dims.numel(), y.dims.numel()}};
}

void addmm_meta(std::string_view op, const TensorMeta& input, const TensorMeta& x,
                const TensorMeta& y, float, float, TensorMeta* out) {
  check_floating(op, "x", x);
  check_same_dtype(op, "y", y, x.dtype);
  check_same_dtype(op, "input", input, x.dtype);
  SKIFF_ENFORCE(x.dims.size() == 2, kInvalidArgument, op, "x", "a 2-D tensor [M, K]", x.dims);
  SKIFF_ENFORCE(y.dims.size() == 2, kInvalidArgument, op, "y", "a 2-D tensor [K, N]", y.dims);
  SKIFF_ENFORCE(dims_match(x.dims[1], y.dims[0]), kInvalidArgument, op, "y",
                str("dim 0 equal to x's dim 1 (", x.dims[1], ") for x ", x.dims), y.dims);
  const Dims mn{x.dims[0], y.dims[1]};
  bool fits = input.dims.size() <= 2;
  for (int i = 0; fits && i < input.dims.size(); ++i) {
    const int64_t d = input.dims[input.dims.size() - 1 - i];
    fits = d == 1 || dims_match(d, mn[1 - i]);
  }
  SKIFF_ENFORCE(fits, kInvalidArgument, op, "input", str("a shape broadcastable to ", mn),
                input.dims);
  *out = {x.dtype, mn};
}

void linear_meta(std::string_view op, const TensorMeta& x, const TensorMeta& weight,
                 const TensorMeta* bias, TensorMeta* out) {
  check_floating(op, "x", x);
  check_same_dtype(op, "weight", weight, x.dtype);
  SKIFF_ENFORCE(x.dims.size() >= 1, kInvalidArgument, op, "x", "a tensor of rank >= 1", x.dims);
  SKIFF_ENFORCE(weight.dims.size() == 2, kInvalidArgument, op, "weight",
                "a 2-D tensor [in_features, out_features]", weight.dims);
  SKIFF_ENFORCE(dims_match(x.dims.back(), weight.dims[0]), kInvalidArgument, op, "weight",
                str("dim 0 equal to x's last dim (", x.dims.back(), ")"), weight.dims);
  if (bias) {
    check_same_dtype(op, "bias", *bias, x.dtype);
    SKIFF_ENFORCE(bias->dims.size() == 1 && dims_match(bias->dims[0], weight.dims[1]),
                  kInvalidArgument, op, "bias", str("a 1-D tensor [", weight.dims[1], "]"),
                  bias->dims);
  }
  Dims od = x.dims;
  od[od.size() - 1] = weight.dims[1];
  *out = {x.dtype, od};
}

}  // namespace skiff::ops::meta
