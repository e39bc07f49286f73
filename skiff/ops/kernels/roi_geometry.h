// Box geometry of the detection kernels (roi_align, roi_pool, nms), shared by the CPU and the
// reference backends so that both sample exactly the same positions: everything here is
// float64, computed from the boxes as read. The kernels differ in what they do with it
// (accumulation dtype, strides, parallelism). Paddle's rules (phi's roi_align/roi_pool/nms CPU
// kernels) are followed to the detail: samples outside [-1, size] contribute 0 but still count,
// roi_pool rounds the box and widens it by one pixel, nms compares IoU > threshold strictly.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "skiff/base/error.h"
#include "skiff/core/dense_tensor.h"
#include "skiff/core/float16.h"

namespace skiff::ops::roi {

/// The values of a floating or integer tensor in row-major order, as float64 (any strides).
inline std::vector<double> values_of(const DenseTensor& t) {
  const DenseTensor c = t.contiguous();
  std::vector<double> v(c.numel());
  visit_dtype(c.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* p = static_cast<const T*>(c.raw_data());
    for (size_t i = 0; i < v.size(); ++i)
      v[i] = static_cast<double>(static_cast<compute_t<T>>(p[i]));
  });
  return v;
}

/// The image of each of the num_boxes boxes from boxes_num (per image counts, boxes ordered by
/// image); without boxes_num every box is in image 0, which needs a batch of one.
inline std::vector<int64_t> box_images(const char* op, const DenseTensor* boxes_num, int64_t batch,
                                       int64_t num_boxes) {
  std::vector<int64_t> image(num_boxes, 0);
  if (!boxes_num) {
    SKIFF_ENFORCE(batch == 1 || num_boxes == 0, kInvalidArgument, op, "boxes_num",
                  "a tensor of per-image box counts when x has more than one image",
                  str("None with a batch of ", batch));
    return image;
  }
  const std::vector<double> counts = values_of(*boxes_num);
  int64_t total = 0;
  for (size_t n = 0; n < counts.size(); ++n) {
    const int64_t c = static_cast<int64_t>(counts[n]);
    SKIFF_ENFORCE(c >= 0, kInvalidArgument, op, "boxes_num", "non-negative counts",
                  str(c, " at image ", n));
    for (int64_t k = 0; k < c && total + k < num_boxes; ++k) image[total + k] = n;
    total += c;
  }
  SKIFF_ENFORCE(total == num_boxes, kInvalidArgument, op, "boxes_num",
                str("counts summing to the number of boxes (", num_boxes, ")"), total);
  return image;
}

/// One bilinear sample: four plane offsets (h * W + w) and their weights (all 0 outside).
struct BilinearTap {
  int64_t offset[4] = {0, 0, 0, 0};
  double weight[4] = {0, 0, 0, 0};
};

inline BilinearTap bilinear_tap(double y, double x, int64_t height, int64_t width) {
  BilinearTap t;
  if (y < -1.0 || y > height || x < -1.0 || x > width || height <= 0 || width <= 0) return t;
  y = std::max(y, 0.0);
  x = std::max(x, 0.0);
  int64_t y_low = static_cast<int64_t>(y), x_low = static_cast<int64_t>(x);
  int64_t y_high = y_low + 1, x_high = x_low + 1;
  if (y_low >= height - 1) y = static_cast<double>(y_high = y_low = height - 1);
  if (x_low >= width - 1) x = static_cast<double>(x_high = x_low = width - 1);
  const double ly = y - y_low, lx = x - x_low, hy = 1 - ly, hx = 1 - lx;
  t.offset[0] = y_low * width + x_low, t.weight[0] = hy * hx;
  t.offset[1] = y_low * width + x_high, t.weight[1] = hy * lx;
  t.offset[2] = y_high * width + x_low, t.weight[2] = ly * hx;
  t.offset[3] = y_high * width + x_high, t.weight[3] = ly * lx;
  return t;
}

/// The samples of one roi_align box: bins in row-major order, `per_bin` taps each, every tap
/// weighted by 1 / per_bin (the mean; an empty grid counts as one sample).
struct AlignBox {
  std::vector<BilinearTap> taps;
  int64_t per_bin = 0;
  double scale = 1.0;
};

inline AlignBox align_box(const double* box, double spatial_scale, int64_t sampling_ratio,
                          bool aligned, int64_t pooled_h, int64_t pooled_w, int64_t height,
                          int64_t width) {
  const double shift = aligned ? 0.5 : 0.0;
  const double x0 = box[0] * spatial_scale - shift, y0 = box[1] * spatial_scale - shift;
  double roi_w = box[2] * spatial_scale - shift - x0, roi_h = box[3] * spatial_scale - shift - y0;
  if (!aligned) roi_w = std::max(roi_w, 1.0), roi_h = std::max(roi_h, 1.0);
  const double bin_h = roi_h / pooled_h, bin_w = roi_w / pooled_w;
  const int64_t grid_h =
      sampling_ratio > 0 ? sampling_ratio : static_cast<int64_t>(std::ceil(roi_h / pooled_h));
  const int64_t grid_w =
      sampling_ratio > 0 ? sampling_ratio : static_cast<int64_t>(std::ceil(roi_w / pooled_w));
  AlignBox b;
  b.per_bin = std::max<int64_t>(grid_h, 0) * std::max<int64_t>(grid_w, 0);
  b.scale = 1.0 / std::max<int64_t>(b.per_bin, 1);
  b.taps.reserve(pooled_h * pooled_w * b.per_bin);
  for (int64_t ph = 0; ph < pooled_h; ++ph) {
    for (int64_t pw = 0; pw < pooled_w; ++pw) {
      for (int64_t iy = 0; iy < grid_h; ++iy) {
        const double y = y0 + ph * bin_h + (iy + 0.5) * bin_h / grid_h;
        for (int64_t ix = 0; ix < grid_w; ++ix) {
          const double x = x0 + pw * bin_w + (ix + 0.5) * bin_w / grid_w;
          b.taps.push_back(bilinear_tap(y, x, height, width));
        }
      }
    }
  }
  return b;
}

/// A roi_pool bin: rows [h0, h1) and columns [w0, w1) of the plane, empty when h1 <= h0 or
/// w1 <= w0.
struct PoolBin {
  int64_t h0, h1, w0, w1;
  bool empty() const { return h1 <= h0 || w1 <= w0; }
};

inline std::vector<PoolBin> pool_bins(const double* box, double spatial_scale, int64_t pooled_h,
                                      int64_t pooled_w, int64_t height, int64_t width) {
  const int64_t x0 = static_cast<int64_t>(std::round(box[0] * spatial_scale));
  const int64_t y0 = static_cast<int64_t>(std::round(box[1] * spatial_scale));
  const int64_t x1 = static_cast<int64_t>(std::round(box[2] * spatial_scale));
  const int64_t y1 = static_cast<int64_t>(std::round(box[3] * spatial_scale));
  const double bin_h = static_cast<double>(std::max<int64_t>(y1 - y0 + 1, 1)) / pooled_h;
  const double bin_w = static_cast<double>(std::max<int64_t>(x1 - x0 + 1, 1)) / pooled_w;
  auto clamp = [](int64_t v, int64_t hi) { return std::min(std::max<int64_t>(v, 0), hi); };
  std::vector<PoolBin> bins;
  bins.reserve(pooled_h * pooled_w);
  for (int64_t ph = 0; ph < pooled_h; ++ph) {
    for (int64_t pw = 0; pw < pooled_w; ++pw) {
      PoolBin b;
      b.h0 = clamp(static_cast<int64_t>(std::floor(ph * bin_h)) + y0, height);
      b.h1 = clamp(static_cast<int64_t>(std::ceil((ph + 1) * bin_h)) + y0, height);
      b.w0 = clamp(static_cast<int64_t>(std::floor(pw * bin_w)) + x0, width);
      b.w1 = clamp(static_cast<int64_t>(std::ceil((pw + 1) * bin_w)) + x0, width);
      bins.push_back(b);
    }
  }
  return bins;
}

/// Whether boxes a and b (x1, y1, x2, y2) overlap with IoU > threshold (no +1 pixel widths),
/// as inter > union * threshold: degenerate boxes never suppress.
inline bool iou_above(const double* a, const double* b, double threshold) {
  const double w = std::max(std::min(a[2], b[2]) - std::max(a[0], b[0]), 0.0);
  const double h = std::max(std::min(a[3], b[3]) - std::max(a[1], b[1]), 0.0);
  const double inter = w * h;
  const double uni = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return inter > uni * threshold;
}

/// box_coder on one box: `prior` and `target` rows (x1, y1, x2, y2), the variances `var`
/// (4 values), `pixel` 1 for unnormalized boxes (else 0). Writes 4 values to out.
inline void encode_center_size(const double* prior, const double* target, const double* var,
                               double pixel, double* out) {
  const double pw = prior[2] - prior[0] + pixel, ph = prior[3] - prior[1] + pixel;
  const double pcx = prior[0] + pw / 2, pcy = prior[1] + ph / 2;
  const double tw = target[2] - target[0] + pixel, th = target[3] - target[1] + pixel;
  const double tcx = target[0] + tw / 2, tcy = target[1] + th / 2;
  out[0] = (tcx - pcx) / pw / var[0];
  out[1] = (tcy - pcy) / ph / var[1];
  out[2] = std::log(std::fabs(tw / pw)) / var[2];
  out[3] = std::log(std::fabs(th / ph)) / var[3];
}

inline void decode_center_size(const double* prior, const double* target, const double* var,
                               double pixel, double* out) {
  const double pw = prior[2] - prior[0] + pixel, ph = prior[3] - prior[1] + pixel;
  const double pcx = prior[0] + pw / 2, pcy = prior[1] + ph / 2;
  const double cx = var[0] * target[0] * pw + pcx, cy = var[1] * target[1] * ph + pcy;
  const double w = std::exp(var[2] * target[2]) * pw, h = std::exp(var[3] * target[3]) * ph;
  out[0] = cx - w / 2;
  out[1] = cy - h / 2;
  out[2] = cx + w / 2 - pixel;
  out[3] = cy + h / 2 - pixel;
}

}  // namespace skiff::ops::roi
