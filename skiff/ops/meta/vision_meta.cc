#include "skiff/ops/meta/vision_meta.h"

#include "skiff/base/error.h"

namespace skiff::ops::meta {

namespace {

constexpr const char* kFloating = "a floating dtype (float32, float64, bfloat16, float16)";

// Equal or dynamic (captured programs).
bool dims_match(int64_t a, int64_t b) { return a == b || a == kDynamicDim || b == kDynamicDim; }

void check_boxes(std::string_view op, const char* arg, const TensorMeta& boxes) {
  SKIFF_ENFORCE(is_floating(boxes.dtype), kTypeError, op, arg, kFloating, boxes.dtype);
  SKIFF_ENFORCE(boxes.dims.size() == 2 && dims_match(boxes.dims[1], 4), kInvalidArgument, op, arg,
                "a 2-D tensor [num_boxes, 4]", boxes.dims);
}

// The checks shared by roi_align and roi_pool; returns their output dims.
Dims roi_out_dims(std::string_view op, const TensorMeta& x, const TensorMeta& boxes,
                  const TensorMeta* boxes_num, int64_t pooled_height, int64_t pooled_width,
                  float spatial_scale) {
  SKIFF_ENFORCE(is_floating(x.dtype), kTypeError, op, "x", kFloating, x.dtype);
  SKIFF_ENFORCE(x.dims.size() == 4, kInvalidArgument, op, "x", "a 4-D tensor [N, C, H, W]", x.dims);
  check_boxes(op, "boxes", boxes);
  if (boxes_num) {
    SKIFF_ENFORCE(boxes_num->dtype == DType::kInt32 || boxes_num->dtype == DType::kInt64,
                  kTypeError, op, "boxes_num", "dtype int32 or int64", boxes_num->dtype);
    SKIFF_ENFORCE(boxes_num->dims.size() == 1 && dims_match(boxes_num->dims[0], x.dims[0]),
                  kInvalidArgument, op, "boxes_num",
                  str("a 1-D tensor [", x.dims[0], "] (one count per image of x)"),
                  boxes_num->dims);
  }
  SKIFF_ENFORCE(pooled_height > 0, kInvalidArgument, op, "pooled_height",
                "a positive output height", pooled_height);
  SKIFF_ENFORCE(pooled_width > 0, kInvalidArgument, op, "pooled_width", "a positive output width",
                pooled_width);
  SKIFF_ENFORCE(spatial_scale > 0, kInvalidArgument, op, "spatial_scale", "a positive value",
                spatial_scale);
  return Dims{boxes.dims[0], x.dims[1], pooled_height, pooled_width};
}

void check_out_grad(std::string_view op, const char* arg, const TensorMeta& g, const Dims& want,
                    DType dtype) {
  SKIFF_ENFORCE(g.dtype == dtype, kTypeError, op, arg, str("dtype ", dtype, " (as x)"), g.dtype);
  bool same = g.dims.size() == want.size();
  for (int i = 0; same && i < want.size(); ++i) same = dims_match(g.dims[i], want[i]);
  SKIFF_ENFORCE(same, kInvalidArgument, op, arg, str("the forward output's shape ", want), g.dims);
}

}  // namespace

void roi_align_meta(std::string_view op, const TensorMeta& x, const TensorMeta& boxes,
                    const TensorMeta* boxes_num, int64_t pooled_height, int64_t pooled_width,
                    float spatial_scale, int64_t, bool, TensorMeta* out) {
  *out = {x.dtype,
          roi_out_dims(op, x, boxes, boxes_num, pooled_height, pooled_width, spatial_scale)};
}

void roi_align_grad_meta(std::string_view op, const TensorMeta& x, const TensorMeta& boxes,
                         const TensorMeta* boxes_num, const TensorMeta& out_grad,
                         int64_t pooled_height, int64_t pooled_width, float spatial_scale, int64_t,
                         bool, TensorMeta* x_grad) {
  const Dims out =
      roi_out_dims(op, x, boxes, boxes_num, pooled_height, pooled_width, spatial_scale);
  check_out_grad(op, "out_grad", out_grad, out, x.dtype);
  *x_grad = x;
}

void roi_pool_meta(std::string_view op, const TensorMeta& x, const TensorMeta& boxes,
                   const TensorMeta* boxes_num, int64_t pooled_height, int64_t pooled_width,
                   float spatial_scale, TensorMeta* out, TensorMeta* arg_max) {
  const Dims d = roi_out_dims(op, x, boxes, boxes_num, pooled_height, pooled_width, spatial_scale);
  *out = {x.dtype, d};
  *arg_max = {DType::kInt64, d};
}

void roi_pool_grad_meta(std::string_view op, const TensorMeta& x, const TensorMeta& boxes,
                        const TensorMeta* boxes_num, const TensorMeta& arg_max,
                        const TensorMeta& out_grad, int64_t pooled_height, int64_t pooled_width,
                        float spatial_scale, TensorMeta* x_grad) {
  const Dims d = roi_out_dims(op, x, boxes, boxes_num, pooled_height, pooled_width, spatial_scale);
  check_out_grad(op, "out_grad", out_grad, d, x.dtype);
  check_out_grad(op, "arg_max", arg_max, d, DType::kInt64);
  *x_grad = x;
}

void nms_meta(std::string_view op, const TensorMeta& x, float, TensorMeta* out) {
  check_boxes(op, "x", x);
  *out = {DType::kInt64, Dims{kDynamicDim}};
}

void box_coder_meta(std::string_view op, const TensorMeta& prior_box,
                    const TensorMeta* prior_box_var, const TensorMeta& target_box,
                    const std::string& code_type, bool, int64_t axis,
                    const std::vector<double>& variance, TensorMeta* output_box) {
  SKIFF_ENFORCE(code_type == "encode_center_size" || code_type == "decode_center_size",
                kInvalidArgument, op, "code_type",
                "\"encode_center_size\" or \"decode_center_size\"", code_type);
  SKIFF_ENFORCE(is_floating(target_box.dtype), kTypeError, op, "target_box", kFloating,
                target_box.dtype);
  check_boxes(op, "prior_box", prior_box);
  if (prior_box_var) {
    SKIFF_ENFORCE(is_floating(prior_box_var->dtype), kTypeError, op, "prior_box_var", kFloating,
                  prior_box_var->dtype);
    SKIFF_ENFORCE(prior_box_var->dims.size() == 2 &&
                      dims_match(prior_box_var->dims[0], prior_box.dims[0]) &&
                      dims_match(prior_box_var->dims[1], 4),
                  kInvalidArgument, op, "prior_box_var",
                  str("the shape of prior_box ", prior_box.dims), prior_box_var->dims);
  }
  SKIFF_ENFORCE(variance.empty() || variance.size() == 4, kInvalidArgument, op, "variance",
                "4 values or none", variance.size());
  SKIFF_ENFORCE(axis == 0 || axis == 1, kInvalidArgument, op, "axis", "0 or 1", axis);
  const Dims& t = target_box.dims;
  if (code_type == "encode_center_size") {
    SKIFF_ENFORCE(t.size() == 2 && dims_match(t[1], 4), kInvalidArgument, op, "target_box",
                  "a 2-D tensor [N, 4] (encode_center_size)", t);
    *output_box = {target_box.dtype, Dims{t[0], prior_box.dims[0], 4}};
    return;
  }
  SKIFF_ENFORCE(t.size() == 3 && dims_match(t[2], 4), kInvalidArgument, op, "target_box",
                "a 3-D tensor [N, M, 4] (decode_center_size)", t);
  SKIFF_ENFORCE(dims_match(t[axis == 0 ? 1 : 0], prior_box.dims[0]), kInvalidArgument, op,
                "prior_box",
                str("[", t[axis == 0 ? 1 : 0], ", 4] (target_box's dim ", axis == 0 ? 1 : 0,
                    " for axis ", axis, ")"),
                prior_box.dims);
  *output_box = target_box;
}

}  // namespace skiff::ops::meta
