// Reference kernels of the detection ops: float64, serial, inputs read through their strides.
// They share the box geometry with the CPU kernels (roi_geometry.h); the Python tests check
// both against numpy implementations of Paddle's rules written independently.
#include "skiff/ops/generated/kernels/vision.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/reference/ref_loops.h"
#include "skiff/ops/kernels/roi_geometry.h"

namespace skiff::ops {

namespace {

// Element (i0, i1, i2, i3) of a 4-D tensor through its strides.
int64_t at4(const DenseTensor& t, int64_t i0, int64_t i1, int64_t i2, int64_t i3) {
  const int64_t idx[4] = {i0, i1, i2, i3};
  return reference::offset_of(t, idx);
}

// Plane position p = h * W + w of channel (n, c) of a 4-D tensor.
template <typename T>
T& plane_at(DenseTensor& t, int64_t n, int64_t c, int64_t p) {
  return static_cast<T*>(t.raw_data())[at4(t, n, c, p / t.dim(3), p % t.dim(3))];
}
template <typename T>
T plane_at(const DenseTensor& t, int64_t n, int64_t c, int64_t p) {
  return static_cast<const T*>(t.raw_data())[at4(t, n, c, p / t.dim(3), p % t.dim(3))];
}

}  // namespace

template <typename T>
void roi_align_reference(const KernelContext& ctx, const RoiAlignArgs& a) {
  const DenseTensor& x = a.x;
  const int64_t k = a.boxes.dim(0), c = x.dim(1), ph = a.pooled_height, pw = a.pooled_width;
  const std::vector<int64_t> image = roi::box_images(ctx.op, a.boxes_num, x.dim(0), k);
  const std::vector<double> boxes = roi::values_of(a.boxes);
  for (int64_t r = 0; r < k; ++r) {
    const roi::AlignBox box = roi::align_box(&boxes[4 * r], a.spatial_scale, a.sampling_ratio,
                                             a.aligned, ph, pw, x.dim(2), x.dim(3));
    for (int64_t ch = 0; ch < c; ++ch) {
      for (int64_t bin = 0; bin < ph * pw; ++bin) {
        double sum = 0;
        for (int64_t s = 0; s < box.per_bin; ++s) {
          const roi::BilinearTap& tap = box.taps[bin * box.per_bin + s];
          for (int q = 0; q < 4; ++q) {
            sum += tap.weight[q] * plane_at<T>(x, image[r], ch, tap.offset[q]);
          }
        }
        plane_at<T>(*a.out, r, ch, bin) = static_cast<T>(sum * box.scale);
      }
    }
  }
}

template <typename T>
void roi_align_grad_reference(const KernelContext& ctx, const RoiAlignGradArgs& a) {
  DenseTensor& gx = *a.x_grad;
  const int64_t k = a.boxes.dim(0), c = gx.dim(1), ph = a.pooled_height, pw = a.pooled_width;
  const std::vector<int64_t> image = roi::box_images(ctx.op, a.boxes_num, gx.dim(0), k);
  const std::vector<double> boxes = roi::values_of(a.boxes);
  std::fill_n(static_cast<T*>(gx.raw_data()), gx.numel(), T(0));
  for (int64_t r = 0; r < k; ++r) {
    const roi::AlignBox box = roi::align_box(&boxes[4 * r], a.spatial_scale, a.sampling_ratio,
                                             a.aligned, ph, pw, gx.dim(2), gx.dim(3));
    for (int64_t ch = 0; ch < c; ++ch) {
      for (int64_t bin = 0; bin < ph * pw; ++bin) {
        const double g = plane_at<T>(a.out_grad, r, ch, bin) * box.scale;
        for (int64_t s = 0; s < box.per_bin; ++s) {
          const roi::BilinearTap& tap = box.taps[bin * box.per_bin + s];
          for (int q = 0; q < 4; ++q)
            plane_at<T>(gx, image[r], ch, tap.offset[q]) += tap.weight[q] * g;
        }
      }
    }
  }
}

template <typename T>
void roi_pool_reference(const KernelContext& ctx, const RoiPoolArgs& a) {
  const DenseTensor& x = a.x;
  const int64_t k = a.boxes.dim(0), c = x.dim(1), w = x.dim(3);
  const std::vector<int64_t> image = roi::box_images(ctx.op, a.boxes_num, x.dim(0), k);
  const std::vector<double> boxes = roi::values_of(a.boxes);
  for (int64_t r = 0; r < k; ++r) {
    const std::vector<roi::PoolBin> bins = roi::pool_bins(
        &boxes[4 * r], a.spatial_scale, a.pooled_height, a.pooled_width, x.dim(2), w);
    for (int64_t ch = 0; ch < c; ++ch) {
      for (size_t bin = 0; bin < bins.size(); ++bin) {
        const roi::PoolBin& b = bins[bin];
        double best = b.empty() ? 0.0 : -std::numeric_limits<double>::infinity();
        int64_t arg = -1;
        for (int64_t y = b.h0; y < b.h1; ++y) {
          for (int64_t xx = b.w0; xx < b.w1; ++xx) {
            const double v = plane_at<T>(x, image[r], ch, y * w + xx);
            if (v > best) best = v, arg = y * w + xx;
          }
        }
        plane_at<T>(*a.out, r, ch, bin) = static_cast<T>(best);
        plane_at<int64_t>(*a.arg_max, r, ch, bin) = arg;
      }
    }
  }
}

template <typename T>
void roi_pool_grad_reference(const KernelContext& ctx, const RoiPoolGradArgs& a) {
  DenseTensor& gx = *a.x_grad;
  const int64_t k = a.boxes.dim(0), c = gx.dim(1), plane = gx.dim(2) * gx.dim(3);
  const int64_t bins = a.pooled_height * a.pooled_width;
  const std::vector<int64_t> image = roi::box_images(ctx.op, a.boxes_num, gx.dim(0), k);
  std::fill_n(static_cast<T*>(gx.raw_data()), gx.numel(), T(0));
  for (int64_t r = 0; r < k; ++r) {
    for (int64_t ch = 0; ch < c; ++ch) {
      for (int64_t bin = 0; bin < bins; ++bin) {
        const int64_t arg = plane_at<int64_t>(a.arg_max, r, ch, bin);
        SKIFF_ENFORCE(arg >= -1 && arg < plane, kOutOfRange, ctx.op, "arg_max",
                      str("positions in [-1, ", plane, ")"), arg);
        if (arg >= 0) plane_at<T>(gx, image[r], ch, arg) += plane_at<T>(a.out_grad, r, ch, bin);
      }
    }
  }
}

template <typename T>
void nms_reference(const KernelContext&, const NmsArgs& a) {
  const int64_t k = a.x.dim(0);
  const std::vector<double> boxes = roi::values_of(a.x);
  std::vector<bool> suppressed(k, false);
  std::vector<int64_t> kept;
  for (int64_t i = 0; i < k; ++i) {
    if (suppressed[i]) continue;
    kept.push_back(i);
    for (int64_t j = i + 1; j < k; ++j) {
      if (roi::iou_above(&boxes[4 * i], &boxes[4 * j], a.threshold)) suppressed[j] = true;
    }
  }
  *a.out = DenseTensor::empty(Dims{static_cast<int64_t>(kept.size())}, DType::kInt64, a.x.place());
  std::copy(kept.begin(), kept.end(), a.out->data<int64_t>());
}

template <typename T>
void box_coder_reference(const KernelContext&, const BoxCoderArgs& a) {
  const bool encode = a.code_type == "encode_center_size";
  const std::vector<double> prior = roi::values_of(a.prior_box);
  const std::vector<double> target = roi::values_of(a.target_box);
  const std::vector<double> var_rows =
      a.prior_box_var ? roi::values_of(*a.prior_box_var) : std::vector<double>{};
  const std::vector<double> ones = {1, 1, 1, 1};
  const int64_t rows = a.target_box.dim(0);
  const int64_t cols = encode ? a.prior_box.dim(0) : a.target_box.dim(1);
  DenseTensor& out = *a.output_box;
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) {
      const int64_t p = encode || a.axis == 0 ? j : i;
      const double* var = a.prior_box_var      ? &var_rows[4 * p]
                          : a.variance.empty() ? ones.data()
                                               : a.variance.data();
      const double* t = &target[encode ? 4 * i : 4 * (i * cols + j)];
      double v[4];
      if (encode) {
        roi::encode_center_size(&prior[4 * p], t, var, a.box_normalized ? 0 : 1, v);
      } else {
        roi::decode_center_size(&prior[4 * p], t, var, a.box_normalized ? 0 : 1, v);
      }
      for (int64_t q = 0; q < 4; ++q) {
        const int64_t idx[3] = {i, j, q};
        static_cast<T*>(out.raw_data())[reference::offset_of(out, idx)] = static_cast<T>(v[q]);
      }
    }
  }
}

SKIFF_INSTANTIATE_KERNEL(roi_align, reference)
SKIFF_INSTANTIATE_KERNEL(roi_align_grad, reference)
SKIFF_INSTANTIATE_KERNEL(roi_pool, reference)
SKIFF_INSTANTIATE_KERNEL(roi_pool_grad, reference)
SKIFF_INSTANTIATE_KERNEL(nms, reference)
SKIFF_INSTANTIATE_KERNEL(box_coder, reference)

}  // namespace skiff::ops
