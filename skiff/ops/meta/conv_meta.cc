#include "skiff/ops/meta/conv_meta.h"

#include <algorithm>
#include <tuple>

#include "skiff/base/error.h"

namespace skiff::ops::meta {

namespace {

bool parse_format(std::string_view op, const std::string& data_format) {
  SKIFF_ENFORCE(data_format == "NCHW" || data_format == "NHWC" || data_format == "AnyLayout",
                kInvalidArgument, op, "data_format", "\"NCHW\" or \"NHWC\"", data_format);
  return data_format == "NHWC";
}

void check_algorithm(std::string_view op, const std::string& a) {
  SKIFF_ENFORCE(a == "EXPLICIT" || a == "SAME" || a == "VALID", kInvalidArgument, op,
                "padding_algorithm", "\"EXPLICIT\", \"SAME\" or \"VALID\"", a);
}

// A pair from a 1- or 2-element list of positive values.
std::pair<int64_t, int64_t> positive_pair(std::string_view op, const char* arg,
                                          const std::vector<int64_t>& v) {
  SKIFF_ENFORCE(v.size() == 1 || v.size() == 2, kInvalidArgument, op, arg, "1 or 2 values",
                v.size());
  const int64_t a = v[0], b = v.size() == 2 ? v[1] : v[0];
  SKIFF_ENFORCE(a > 0 && b > 0, kInvalidArgument, op, arg, "positive values", str(a, ", ", b));
  return {a, b};
}

void set_paddings(std::string_view op, const std::vector<int64_t>& p, Window2d* g) {
  SKIFF_ENFORCE(p.size() == 1 || p.size() == 2 || p.size() == 4, kInvalidArgument, op, "paddings",
                "1, 2 or 4 values", p.size());
  for (int64_t v : p) {
    SKIFF_ENFORCE(v >= 0, kInvalidArgument, op, "paddings", "non-negative values", v);
  }
  if (p.size() == 4) {
    g->pad_top = p[0], g->pad_bottom = p[1], g->pad_left = p[2], g->pad_right = p[3];
  } else {
    g->pad_top = g->pad_bottom = p[0];
    g->pad_left = g->pad_right = p.size() == 2 ? p[1] : p[0];
  }
}

// Paddle's "SAME": ceil(in / stride) outputs, the padding split with the extra one after.
void same_padding(int64_t in, int64_t k, int64_t stride, int64_t* before, int64_t* after) {
  const int64_t out = (in + stride - 1) / stride;
  const int64_t total = std::max<int64_t>((out - 1) * stride + k - in, 0);
  *before = total / 2;
  *after = total - total / 2;
}

void set_input(std::string_view op, const char* arg, const Dims& d, bool nhwc, Window2d* g) {
  SKIFF_ENFORCE(d.size() == 4, kInvalidArgument, op, arg,
                nhwc ? "a 4-D tensor [N, H, W, C]" : "a 4-D tensor [N, C, H, W]", d);
  g->nhwc = nhwc;
  g->n = d[0];
  g->c = nhwc ? d[3] : d[1];
  g->h = nhwc ? d[1] : d[2];
  g->w = nhwc ? d[2] : d[3];
}

}  // namespace

Window2d conv2d_window(std::string_view op, const Dims& input, const Dims& filter,
                       const std::vector<int64_t>& strides, const std::vector<int64_t>& paddings,
                       const std::string& padding_algorithm, const std::vector<int64_t>& dilations,
                       int64_t groups, const std::string& data_format) {
  Window2d g;
  set_input(op, "input", input, parse_format(op, data_format), &g);
  check_algorithm(op, padding_algorithm);
  SKIFF_ENFORCE(filter.size() == 4, kInvalidArgument, op, "filter",
                "a 4-D tensor [out_channels, in_channels / groups, kh, kw]", filter);
  SKIFF_ENFORCE(groups >= 1, kInvalidArgument, op, "groups", "a positive value", groups);
  SKIFF_ENFORCE(filter[1] * groups == g.c, kInvalidArgument, op, "filter",
                str("dim 1 equal to input channels / groups (", g.c, " / ", groups, ")"), filter);
  SKIFF_ENFORCE(filter[0] % groups == 0, kInvalidArgument, op, "filter",
                str("out_channels divisible by groups (", groups, ")"), filter);
  g.groups = groups;
  g.oc = filter[0];
  g.kh = filter[2];
  g.kw = filter[3];
  std::tie(g.stride_h, g.stride_w) = positive_pair(op, "strides", strides);
  std::tie(g.dil_h, g.dil_w) = positive_pair(op, "dilations", dilations);
  set_paddings(op, paddings, &g);
  if (padding_algorithm == "SAME") {
    g.dil_h = g.dil_w = 1;
    same_padding(g.h, g.kh, g.stride_h, &g.pad_top, &g.pad_bottom);
    same_padding(g.w, g.kw, g.stride_w, &g.pad_left, &g.pad_right);
  } else if (padding_algorithm == "VALID") {
    g.pad_top = g.pad_bottom = g.pad_left = g.pad_right = 0;
  }
  const int64_t ekh = g.dil_h * (g.kh - 1) + 1, ekw = g.dil_w * (g.kw - 1) + 1;
  const int64_t ph = g.h + g.pad_top + g.pad_bottom, pw = g.w + g.pad_left + g.pad_right;
  SKIFF_ENFORCE(
      ph >= ekh && pw >= ekw, kInvalidArgument, op, "filter",
      str("a window (dilated ", ekh, "x", ekw, ") that fits the padded input ", ph, "x", pw),
      filter);
  g.oh = (ph - ekh) / g.stride_h + 1;
  g.ow = (pw - ekw) / g.stride_w + 1;
  return g;
}

Window2d pool2d_window(std::string_view op, const Dims& x, const std::vector<int64_t>& kernel_size,
                       const std::vector<int64_t>& strides, const std::vector<int64_t>& paddings,
                       bool ceil_mode, const std::string& data_format, bool global_pooling,
                       bool adaptive, const std::string& padding_algorithm) {
  Window2d g;
  set_input(op, "x", x, parse_format(op, data_format), &g);
  check_algorithm(op, padding_algorithm);
  g.oc = g.c;
  std::tie(g.kh, g.kw) = positive_pair(op, "kernel_size", kernel_size);
  std::tie(g.stride_h, g.stride_w) = positive_pair(op, "strides", strides);
  set_paddings(op, paddings, &g);
  if (global_pooling) {
    g.kh = g.h, g.kw = g.w;
    g.pad_top = g.pad_bottom = g.pad_left = g.pad_right = 0;
  }
  if (adaptive) {  // kernel_size is the output size; windows split the input evenly
    g.oh = g.kh, g.ow = g.kw;
    g.pad_top = g.pad_bottom = g.pad_left = g.pad_right = 0;
    return g;
  }
  if (padding_algorithm == "SAME") {
    same_padding(g.h, g.kh, g.stride_h, &g.pad_top, &g.pad_bottom);
    same_padding(g.w, g.kw, g.stride_w, &g.pad_left, &g.pad_right);
  } else if (padding_algorithm == "VALID") {
    g.pad_top = g.pad_bottom = g.pad_left = g.pad_right = 0;
  }
  const int64_t ph = g.h + g.pad_top + g.pad_bottom, pw = g.w + g.pad_left + g.pad_right;
  SKIFF_ENFORCE(ph >= g.kh && pw >= g.kw, kInvalidArgument, op, "kernel_size",
                str("a window that fits the padded input ", ph, "x", pw), str(g.kh, "x", g.kw));
  const int64_t ch = ceil_mode ? g.stride_h - 1 : 0, cw = ceil_mode ? g.stride_w - 1 : 0;
  g.oh = (ph - g.kh + ch) / g.stride_h + 1;
  g.ow = (pw - g.kw + cw) / g.stride_w + 1;
  return g;
}

Dims window_out_dims(const Window2d& g) {
  return g.nhwc ? Dims{g.n, g.oh, g.ow, g.oc} : Dims{g.n, g.oc, g.oh, g.ow};
}

void conv2d_meta(std::string_view op, const TensorMeta& input, const TensorMeta& filter,
                 const std::vector<int64_t>& strides, const std::vector<int64_t>& paddings,
                 const std::string& padding_algorithm, const std::vector<int64_t>& dilations,
                 int64_t groups, const std::string& data_format, TensorMeta* out) {
  SKIFF_ENFORCE(is_floating(input.dtype), kTypeError, op, "input", "a floating dtype", input.dtype);
  SKIFF_ENFORCE(filter.dtype == input.dtype, kTypeError, op, "filter",
                str("dtype ", input.dtype, " (as input)"), filter.dtype);
  const Window2d g = conv2d_window(op, input.dims, filter.dims, strides, paddings,
                                   padding_algorithm, dilations, groups, data_format);
  *out = {input.dtype, window_out_dims(g)};
}

void pool2d_meta(std::string_view op, const TensorMeta& x, const std::vector<int64_t>& kernel_size,
                 const std::vector<int64_t>& strides, const std::vector<int64_t>& paddings,
                 bool ceil_mode, bool, const std::string& data_format,
                 const std::string& pooling_type, bool global_pooling, bool adaptive,
                 const std::string& padding_algorithm, TensorMeta* out) {
  SKIFF_ENFORCE(is_floating(x.dtype), kTypeError, op, "x", "a floating dtype", x.dtype);
  SKIFF_ENFORCE(pooling_type == "max" || pooling_type == "avg", kInvalidArgument, op,
                "pooling_type", "\"max\" or \"avg\"", pooling_type);
  const Window2d g = pool2d_window(op, x.dims, kernel_size, strides, paddings, ceil_mode,
                                   data_format, global_pooling, adaptive, padding_algorithm);
  *out = {x.dtype, window_out_dims(g)};
}

void conv2d_grad_meta(std::string_view op, const TensorMeta& input, const TensorMeta& filter,
                      const TensorMeta& out_grad, const std::vector<int64_t>& strides,
                      const std::vector<int64_t>& paddings, const std::string& padding_algorithm,
                      const std::vector<int64_t>& dilations, int64_t groups,
                      const std::string& data_format,
                      const std::vector<int64_t>& output_mask, TensorMeta* input_grad,
                      TensorMeta* filter_grad) {
  TensorMeta out;
  conv2d_meta(op, input, filter, strides, paddings, padding_algorithm, dilations, groups,
              data_format, &out);
  SKIFF_ENFORCE(out_grad.dims == out.dims, kInvalidArgument, op, "out_grad",
                str("the convolution's output shape ", out.dims), out_grad.dims);
  SKIFF_ENFORCE(out_grad.dtype == input.dtype, kTypeError, op, "out_grad",
                str("dtype ", input.dtype, " (as input)"), out_grad.dtype);
  SKIFF_ENFORCE(output_mask.size() == 2 && (output_mask[0] == 0 || output_mask[0] == 1) &&
                    (output_mask[1] == 0 || output_mask[1] == 1),
                kInvalidArgument, op, "output_mask", "two flags, each 0 or 1", output_mask);
  *input_grad = output_mask[0] ? input : TensorMeta{input.dtype, Dims{0}};
  *filter_grad = output_mask[1] ? filter : TensorMeta{filter.dtype, Dims{0}};
}

void pool2d_grad_meta(std::string_view op, const TensorMeta& x, const TensorMeta& out,
                      const TensorMeta& out_grad, const std::vector<int64_t>& kernel_size,
                      const std::vector<int64_t>& strides, const std::vector<int64_t>& paddings,
                      bool ceil_mode, bool exclusive, const std::string& data_format,
                      const std::string& pooling_type, bool global_pooling, bool adaptive,
                      const std::string& padding_algorithm, TensorMeta* x_grad) {
  TensorMeta want;
  pool2d_meta(op, x, kernel_size, strides, paddings, ceil_mode, exclusive, data_format,
              pooling_type, global_pooling, adaptive, padding_algorithm, &want);
  SKIFF_ENFORCE(out.dims == want.dims && out.dtype == x.dtype, kInvalidArgument, op, "out",
                str("the pooling's output (", x.dtype, " ", want.dims, ")"),
                str(out.dtype, " ", out.dims));
  SKIFF_ENFORCE(out_grad.dims == want.dims && out_grad.dtype == x.dtype, kInvalidArgument, op,
                "out_grad",
                str("the pooling's output shape and dtype (", x.dtype, " ", want.dims, ")"),
                str(out_grad.dtype, " ", out_grad.dims));
  *x_grad = x;
}

}  // namespace skiff::ops::meta
