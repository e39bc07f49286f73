#include "skiff/ops/meta/nn_meta.h"

#include <cmath>

#include "skiff/base/error.h"

namespace skiff::ops::meta {

namespace {

void enforce_floating(std::string_view op, const char* arg, DType dtype) {
  SKIFF_ENFORCE(is_floating(dtype), kTypeError, op, arg, "a floating-point tensor", dtype);
}

void enforce_index(std::string_view op, const char* arg, DType dtype) {
  SKIFF_ENFORCE(dtype == DType::kInt32 || dtype == DType::kInt64, kTypeError, op, arg,
                "an int32 or int64 tensor", dtype);
}

bool is_16bit(DType d) { return d == DType::kFloat16 || d == DType::kBFloat16; }

// The statistics dtype of a normalization: float32 for 16-bit inputs (Paddle).
DType stat_dtype(DType x) { return is_16bit(x) ? DType::kFloat32 : x; }

// Checks a per-feature parameter of a normalization over x.dims[begin:]: 1-D of that many
// elements or exactly x.dims[begin:]; x's dtype, or float32 for 16-bit x.
void check_norm_param(std::string_view op, const char* arg, const TensorMeta& p,
                      const TensorMeta& x, int begin) {
  Dims trailing;
  for (int i = begin; i < x.dims.size(); ++i) trailing.push_back(x.dims[i]);
  const int64_t right = trailing.numel();
  const bool ok = (p.dims.size() == 1 && p.dims[0] == right) || p.dims == trailing;
  SKIFF_ENFORCE(ok, kInvalidArgument, op, arg,
                str("dims [", right, "] or ", trailing, " (x.dims[", begin, ":])"), p.dims);
  const bool dtype_ok = p.dtype == x.dtype || (is_16bit(x.dtype) && p.dtype == DType::kFloat32);
  SKIFF_ENFORCE(dtype_ok, kTypeError, op, arg, str("dtype ", x.dtype, " (x's)"), p.dtype);
}

}  // namespace

void softmax_meta(std::string_view op, const TensorMeta& x, int64_t axis, TensorMeta* out) {
  enforce_floating(op, "x", x.dtype);
  normalize_axis(axis, x.dims.size(), std::string(op).c_str());
  *out = x;
}

void layer_norm_meta(std::string_view op, const TensorMeta& x, const TensorMeta* scale,
                     const TensorMeta* bias, float epsilon, int64_t begin_norm_axis,
                     TensorMeta* out, TensorMeta* mean, TensorMeta* variance) {
  enforce_floating(op, "x", x.dtype);
  const int begin =
      normalize_axis(begin_norm_axis, x.dims.size(), std::string(op).c_str(), "begin_norm_axis");
  SKIFF_ENFORCE(epsilon >= 0, kInvalidArgument, op, "epsilon", ">= 0", epsilon);
  if (scale) check_norm_param(op, "scale", *scale, x, begin);
  if (bias) check_norm_param(op, "bias", *bias, x, begin);
  int64_t left = 1;
  for (int i = 0; i < begin; ++i) left *= x.dims[i];
  *out = x;
  *mean = {stat_dtype(x.dtype), Dims{left}};
  *variance = *mean;
}

void rms_norm_meta(std::string_view op, const TensorMeta& x, const TensorMeta* weight,
                   float epsilon, int64_t begin_norm_axis, TensorMeta* out, TensorMeta* inv_rms) {
  enforce_floating(op, "x", x.dtype);
  const int begin =
      normalize_axis(begin_norm_axis, x.dims.size(), std::string(op).c_str(), "begin_norm_axis");
  SKIFF_ENFORCE(epsilon >= 0, kInvalidArgument, op, "epsilon", ">= 0", epsilon);
  if (weight) check_norm_param(op, "weight", *weight, x, begin);
  Dims lead;
  for (int i = 0; i < begin; ++i) lead.push_back(x.dims[i]);
  *out = x;
  *inv_rms = {stat_dtype(x.dtype), lead};
}

int batch_norm_channel_axis(std::string_view op, const std::string& data_format, int rank) {
  static const char* const kFirst[] = {"NC", "NCL", "NCHW", "NCDHW"};
  static const char* const kLast[] = {"NLC", "NHWC", "NDHWC"};
  for (const char* f : kFirst) {
    if (data_format == f) return 1;
  }
  for (const char* f : kLast) {
    if (data_format == f) return rank == 2 ? 1 : rank - 1;
  }
  SKIFF_THROW(kInvalidArgument, op, "data_format",
              "one of NC, NCL, NCHW, NCDHW, NLC, NHWC, NDHWC", str("'", data_format, "'"));
}

namespace {
// x: floating, rank 2-5; returns its channel count (-1 when only known at run time).
int64_t batch_norm_channels(std::string_view op, const TensorMeta& x,
                            const std::string& data_format) {
  enforce_floating(op, "x", x.dtype);
  SKIFF_ENFORCE(x.dims.size() >= 2 && x.dims.size() <= 5, kInvalidArgument, op, "x",
                "a tensor of rank 2 to 5", str("shape ", x.dims));
  return x.dims[batch_norm_channel_axis(op, data_format, x.dims.size())];
}

// A per-channel tensor of batch_norm: [C], x's dtype or float32 for 16-bit x.
void check_channel_param(std::string_view op, const char* arg, const TensorMeta& p,
                         const TensorMeta& x, int64_t channels) {
  const bool ok = p.dims.size() == 1 && (channels < 0 || p.dims[0] < 0 || p.dims[0] == channels);
  SKIFF_ENFORCE(ok, kInvalidArgument, op, arg,
                str("shape [", channels, "] (the channels of x, shape ", x.dims, ")"), p.dims);
  const bool dtype_ok = p.dtype == x.dtype || (is_16bit(x.dtype) && p.dtype == DType::kFloat32);
  SKIFF_ENFORCE(dtype_ok, kTypeError, op, arg, str("dtype ", x.dtype, " (x's) or float32"),
                p.dtype);
}
}  // namespace

void batch_norm_meta(std::string_view op, const TensorMeta& x, const TensorMeta& mean,
                     const TensorMeta& variance, const TensorMeta* scale, const TensorMeta* bias,
                     bool is_test, float momentum, float epsilon, const std::string& data_format,
                     bool use_global_stats, bool trainable_statistics, TensorMeta* out,
                     TensorMeta* mean_out, TensorMeta* variance_out, TensorMeta* saved_mean,
                     TensorMeta* saved_variance) {
  (void)is_test, (void)use_global_stats, (void)trainable_statistics;
  const int64_t c = batch_norm_channels(op, x, data_format);
  // The running mean fixes the channel count (the layer's num_features): name x when it differs.
  if (mean.dims.size() == 1 && c >= 0 && mean.dims[0] >= 0) {
    const int axis = batch_norm_channel_axis(op, data_format, x.dims.size());
    SKIFF_ENFORCE(mean.dims[0] == c, kInvalidArgument, op, "x",
                  str(mean.dims[0], " channels on axis ", axis, " (", data_format,
                      "; the length of mean, the layer's num_features)"),
                  str(c, " in shape ", x.dims));
  }
  check_channel_param(op, "mean", mean, x, c);
  check_channel_param(op, "variance", variance, x, c);
  if (scale) check_channel_param(op, "scale", *scale, x, c);
  if (bias) check_channel_param(op, "bias", *bias, x, c);
  SKIFF_ENFORCE(epsilon >= 0, kInvalidArgument, op, "epsilon", ">= 0", epsilon);
  SKIFF_ENFORCE(std::isfinite(momentum), kInvalidArgument, op, "momentum", "a finite number",
                momentum);
  *out = x;
  *mean_out = mean;
  *variance_out = variance;
  *saved_mean = {stat_dtype(x.dtype), Dims{c}};
  *saved_variance = *saved_mean;
}

void batch_norm_grad_meta(std::string_view op, const TensorMeta& x, const TensorMeta& saved_mean,
                          const TensorMeta& saved_variance, const TensorMeta& out_grad,
                          const TensorMeta* scale, const std::string& data_format,
                          bool use_global_stats, TensorMeta* x_grad, TensorMeta* scale_grad,
                          TensorMeta* bias_grad) {
  (void)use_global_stats;
  const int64_t c = batch_norm_channels(op, x, data_format);
  if (scale) check_channel_param(op, "scale", *scale, x, c);
  check_channel_param(op, "saved_mean", saved_mean, x, c);
  check_channel_param(op, "saved_variance", saved_variance, x, c);
  SKIFF_ENFORCE(out_grad.dims == x.dims, kInvalidArgument, op, "out_grad",
                str("x's shape ", x.dims), out_grad.dims);
  SKIFF_ENFORCE(out_grad.dtype == x.dtype, kTypeError, op, "out_grad", str("x's dtype ", x.dtype),
                out_grad.dtype);
  *x_grad = x;
  *scale_grad = {scale ? scale->dtype : stat_dtype(x.dtype), Dims{c}};
  *bias_grad = *scale_grad;
}

void embedding_meta(std::string_view op, const TensorMeta& x, const TensorMeta& weight,
                    int64_t padding_idx, TensorMeta* out) {
  enforce_index(op, "x", x.dtype);
  enforce_floating(op, "weight", weight.dtype);
  SKIFF_ENFORCE(weight.dims.size() == 2, kInvalidArgument, op, "weight",
                "a 2-D tensor [num_embeddings, embedding_dim]", weight.dims);
  SKIFF_ENFORCE(padding_idx >= -1 && padding_idx < weight.dims[0], kOutOfRange, op, "padding_idx",
                str("-1 (none) or a row in [0, ", weight.dims[0], ")"), padding_idx);
  Dims dims = x.dims;
  dims.push_back(weight.dims[1]);
  *out = {weight.dtype, dims};
}

void one_hot_meta(std::string_view op, const TensorMeta& x, int64_t num_classes, TensorMeta* out) {
  enforce_index(op, "x", x.dtype);
  SKIFF_ENFORCE(num_classes >= 1, kInvalidArgument, op, "num_classes", ">= 1", num_classes);
  Dims dims = x.dims;
  dims.push_back(num_classes);
  *out = {DType::kFloat32, dims};
}

void cross_entropy_with_softmax_meta(std::string_view op, const TensorMeta& logits,
                                     const TensorMeta& label, bool soft_label, bool, bool, int64_t,
                                     int64_t axis, TensorMeta* softmax, TensorMeta* loss) {
  enforce_floating(op, "logits", logits.dtype);
  SKIFF_ENFORCE(logits.dims.size() >= 1, kInvalidArgument, op, "logits", "at least 1 dim",
                logits.dims);
  const int ax = normalize_axis(axis, logits.dims.size(), std::string(op).c_str());
  SKIFF_ENFORCE(logits.dims[ax] != 0, kInvalidArgument, op, "logits",
                str("at least one class along axis ", ax), logits.dims);
  Dims loss_dims = logits.dims;
  loss_dims[ax] = 1;
  if (soft_label) {
    SKIFF_ENFORCE(label.dtype == logits.dtype, kTypeError, op, "label",
                  str("dtype ", logits.dtype, " (logits') for soft labels"), label.dtype);
    SKIFF_ENFORCE(label.dims == logits.dims, kInvalidArgument, op, "label",
                  str("dims ", logits.dims, " (logits') for soft labels"), label.dims);
  } else {
    enforce_index(op, "label", label.dtype);
    SKIFF_ENFORCE(label.dims == loss_dims, kInvalidArgument, op, "label",
                  str("dims ", loss_dims, " (logits' with dims[", ax, "] = 1) for hard labels"),
                  label.dims);
  }
  *softmax = logits;
  *loss = {logits.dtype, loss_dims};
}

void dropout_meta(std::string_view op, const TensorMeta& x, float p, bool, const std::string& mode,
                  int64_t, TensorMeta* out, TensorMeta* mask) {
  enforce_floating(op, "x", x.dtype);
  SKIFF_ENFORCE(p >= 0 && p <= 1, kInvalidArgument, op, "p", "a probability in [0, 1]", p);
  SKIFF_ENFORCE(mode == "upscale_in_train" || mode == "downgrade_in_infer", kInvalidArgument, op,
                "mode", "'upscale_in_train' or 'downgrade_in_infer'", str("'", mode, "'"));
  *out = x;
  *mask = {DType::kUInt8, x.dims};
}

}  // namespace skiff::ops::meta
