#include "skiff/ops/meta/quant_meta.h"

#include <cmath>

#include "skiff/base/error.h"
#include "skiff/base/str.h"
#include "skiff/ops/kernels/quant_layout.h"

namespace skiff::ops::meta {

namespace {

constexpr const char* kFloating = "a floating dtype (float32, float64, bfloat16, float16)";

bool dynamic(int64_t d) { return d == kDynamicDim; }
bool dims_match(int64_t a, int64_t b) { return a == b || dynamic(a) || dynamic(b); }

// f(d) of a dim that may be dynamic.
template <typename F>
int64_t map_dim(int64_t d, const F& f) {
  return dynamic(d) ? kDynamicDim : f(d);
}

// The scale of k values per channel over n channels: [n] or [groups, n].
void check_scale(std::string_view op, const char* arg, const TensorMeta& scale,
                 const quant::Format& f, int64_t k, int64_t n) {
  SKIFF_ENFORCE(is_floating(scale.dtype), kTypeError, op, arg, kFloating, scale.dtype);
  if (f.group < 0) {
    SKIFF_ENFORCE(scale.dims.size() == 1 && dims_match(scale.dims[0], n), kInvalidArgument, op, arg,
                  str("a 1-D tensor [", n, "] (one scale per output channel)"), scale.dims);
    return;
  }
  const int64_t groups = map_dim(k, [&](int64_t v) { return f.scale_rows(v); });
  SKIFF_ENFORCE(
      scale.dims.size() == 2 && dims_match(scale.dims[0], groups) && dims_match(scale.dims[1], n),
      kInvalidArgument, op, arg,
      str("a 2-D tensor [", groups, ", ", n, "] (one scale per group of ", f.group,
          " input values and output channel)"),
      scale.dims);
}

// weight int8 [n, row_bytes(k)] for k input features; returns n.
int64_t check_weight(std::string_view op, const TensorMeta& weight, const quant::Format& f,
                     int64_t k) {
  SKIFF_ENFORCE(weight.dtype == DType::kInt8, kTypeError, op, "weight",
                "dtype int8 (weight_quantize's out)", weight.dtype);
  SKIFF_ENFORCE(weight.dims.size() == 2, kInvalidArgument, op, "weight",
                "a 2-D tensor [out_features, in_features] (int4: [out_features, "
                "ceil(in_features / 2)])",
                weight.dims);
  const int64_t bytes = map_dim(k, [&](int64_t v) { return f.row_bytes(v); });
  SKIFF_ENFORCE(dims_match(weight.dims[1], bytes), kInvalidArgument, op, "weight",
                str("[out_features, ", bytes, "] for x's last dim ", k, " (", f.bits, "-bit)"),
                weight.dims);
  return weight.dims[0];
}

}  // namespace

void weight_quantize_meta(std::string_view op, const TensorMeta& x, const std::string& algo,
                          int64_t group_size, TensorMeta* out, TensorMeta* scale) {
  const quant::Format f = quant::format_of_algo(op, algo, group_size);
  SKIFF_ENFORCE(is_floating(x.dtype), kTypeError, op, "x", kFloating, x.dtype);
  SKIFF_ENFORCE(x.dims.size() == 2, kInvalidArgument, op, "x",
                "a 2-D weight [in_features, out_features]", x.dims);
  const int64_t k = x.dims[0], n = x.dims[1];
  *out = {DType::kInt8, Dims{n, map_dim(k, [&](int64_t v) { return f.row_bytes(v); })}};
  const DType sd = f.float32_scale ? DType::kFloat32 : x.dtype;
  if (f.group < 0) {
    *scale = {sd, Dims{n}};
  } else {
    *scale = {sd, Dims{map_dim(k, [&](int64_t v) { return f.scale_rows(v); }), n}};
  }
}

void weight_dequantize_meta(std::string_view op, const TensorMeta& x, const TensorMeta& scale,
                            const std::string& algo, int64_t group_size, TensorMeta* out) {
  const quant::Format f = quant::format_of_algo(op, algo, group_size);
  SKIFF_ENFORCE(x.dtype == DType::kInt8, kTypeError, op, "x", "dtype int8 (weight_quantize's out)",
                x.dtype);
  SKIFF_ENFORCE(x.dims.size() == 2, kInvalidArgument, op, "x",
                "a 2-D tensor [out_features, in_features] (int4: [out_features, "
                "ceil(in_features / 2)])",
                x.dims);
  const int64_t n = x.dims[0];
  const int64_t k = map_dim(x.dims[1], [&](int64_t v) { return f.row_values(v); });
  check_scale(op, "scale", scale, f, k, n);
  *out = {scale.dtype, Dims{k, n}};
}

void weight_only_linear_meta(std::string_view op, const TensorMeta& x, const TensorMeta& weight,
                             const TensorMeta* bias, const TensorMeta& weight_scale,
                             const std::string& weight_dtype, int64_t group_size, TensorMeta* out) {
  const quant::Format f = quant::format_of_weight_dtype(op, weight_dtype, group_size);
  SKIFF_ENFORCE(is_floating(x.dtype), kTypeError, op, "x", kFloating, x.dtype);
  SKIFF_ENFORCE(x.dims.size() >= 1, kInvalidArgument, op, "x",
                "a tensor of rank >= 1 [..., in_features]", x.dims);
  const int64_t k = x.dims.back();
  const int64_t n = check_weight(op, weight, f, k);
  check_scale(op, "weight_scale", weight_scale, f, k, n);
  if (bias) {
    SKIFF_ENFORCE(bias->dtype == x.dtype, kTypeError, op, "bias", str("dtype ", x.dtype, " (as x)"),
                  bias->dtype);
    SKIFF_ENFORCE(bias->dims.size() == 1 && dims_match(bias->dims[0], n), kInvalidArgument, op,
                  "bias", str("a 1-D tensor [", n, "] (one per output channel)"), bias->dims);
  }
  Dims d = x.dims;
  d[d.size() - 1] = n;
  *out = {x.dtype, d};
}

void llm_int8_linear_meta(std::string_view op, const TensorMeta& x, const TensorMeta& weight,
                          const TensorMeta* bias, const TensorMeta& weight_scale, float threshold,
                          TensorMeta* out) {
  SKIFF_ENFORCE(!std::isnan(threshold), kInvalidArgument, op, "threshold",
                "a number (the smallest |value| that makes a column of x an outlier)", "nan");
  weight_only_linear_meta(op, x, weight, bias, weight_scale, "int8", -1, out);
}

void weight_only_linear_grad_meta(std::string_view op, const TensorMeta& x,
                                  const TensorMeta& weight, const TensorMeta& weight_scale,
                                  const TensorMeta& out_grad, const std::string& weight_dtype,
                                  int64_t group_size, TensorMeta* x_grad) {
  TensorMeta out;
  weight_only_linear_meta(op, x, weight, nullptr, weight_scale, weight_dtype, group_size, &out);
  SKIFF_ENFORCE(out_grad.dtype == x.dtype, kTypeError, op, "out_grad",
                str("dtype ", x.dtype, " (as x)"), out_grad.dtype);
  bool same = out_grad.dims.size() == out.dims.size();
  for (int i = 0; same && i < out.dims.size(); ++i)
    same = dims_match(out_grad.dims[i], out.dims[i]);
  SKIFF_ENFORCE(same, kInvalidArgument, op, "out_grad",
                str("the forward output's shape ", out.dims), out_grad.dims);
  *x_grad = x;
}

}  // namespace skiff::ops::meta
