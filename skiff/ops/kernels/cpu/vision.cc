// CPU kernels of the detection ops. The geometry (sample positions, bilinear weights, bins,
// IoU) is float64 from roi_geometry.h, computed once per box; values are accumulated in the
// compute type (float for 16-bit floats). Forward kernels split the boxes over threads (each
// writes its own output rows); the backward kernels walk the boxes in order and split the
// channels, so no two threads add into the same gradient plane. Boxes and counts are
// validated on the calling thread before any parallel work.
#include "skiff/ops/generated/kernels/vision.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "skiff/core/parallel.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/loops.h"
#include "skiff/ops/kernels/roi_geometry.h"

namespace skiff::ops {

namespace {

using cpu::load;
using cpu::store;

// Work per task: channels times the samples each needs.
int64_t grain_for(int64_t per_item) {
  return std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(per_item, 1));
}

}  // namespace

template <typename T>
void roi_align_cpu(const KernelContext& ctx, const RoiAlignArgs& a) {
  const DenseTensor x = a.x.contiguous();
  const int64_t n = x.dim(0), c = x.dim(1), h = x.dim(2), w = x.dim(3);
  const int64_t k = a.boxes.dim(0), ph = a.pooled_height, pw = a.pooled_width;
  const std::vector<int64_t> image = roi::box_images(ctx.op, a.boxes_num, n, k);
  const std::vector<double> boxes = roi::values_of(a.boxes);
  const T* px = x.data<T>();
  T* po = a.out->data<T>();
  parallel_for(0, k, grain_for(c * ph * pw * 4), [&](int64_t b0, int64_t b1) {
    for (int64_t r = b0; r < b1; ++r) {
      const roi::AlignBox box =
          roi::align_box(&boxes[4 * r], a.spatial_scale, a.sampling_ratio, a.aligned, ph, pw, h, w);
      for (int64_t ch = 0; ch < c; ++ch) {
        const T* plane = px + (image[r] * c + ch) * h * w;
        T* out = po + (r * c + ch) * ph * pw;
        const roi::BilinearTap* tap = box.taps.data();
        for (int64_t bin = 0; bin < ph * pw; ++bin) {
          compute_t<T> acc = 0;
          for (int64_t s = 0; s < box.per_bin; ++s, ++tap) {
            for (int q = 0; q < 4; ++q) {
              acc += static_cast<compute_t<T>>(tap->weight[q]) * load(plane[tap->offset[q]]);
            }
          }
          out[bin] = store<T>(acc * static_cast<compute_t<T>>(box.scale));
        }
      }
    }
  });
}

template <typename T>
void roi_align_grad_cpu(const KernelContext& ctx, const RoiAlignGradArgs& a) {
  const int64_t n = a.x.dim(0), c = a.x.dim(1), h = a.x.dim(2), w = a.x.dim(3);
  const int64_t k = a.boxes.dim(0), ph = a.pooled_height, pw = a.pooled_width;
  const std::vector<int64_t> image = roi::box_images(ctx.op, a.boxes_num, n, k);
  const std::vector<double> boxes = roi::values_of(a.boxes);
  const DenseTensor g = a.out_grad.contiguous();
  const T* pg = g.data<T>();
  std::vector<compute_t<T>> acc(n * c * h * w, compute_t<T>(0));
  for (int64_t r = 0; r < k; ++r) {
    const roi::AlignBox box =
        roi::align_box(&boxes[4 * r], a.spatial_scale, a.sampling_ratio, a.aligned, ph, pw, h, w);
    parallel_for(0, c, grain_for(ph * pw * box.per_bin * 4), [&](int64_t c0, int64_t c1) {
      for (int64_t ch = c0; ch < c1; ++ch) {
        compute_t<T>* plane = acc.data() + (image[r] * c + ch) * h * w;
        const T* grad = pg + (r * c + ch) * ph * pw;
        const roi::BilinearTap* tap = box.taps.data();
        for (int64_t bin = 0; bin < ph * pw; ++bin) {
          const compute_t<T> gv = load(grad[bin]) * static_cast<compute_t<T>>(box.scale);
          for (int64_t s = 0; s < box.per_bin; ++s, ++tap) {
            for (int q = 0; q < 4; ++q) {
              plane[tap->offset[q]] += static_cast<compute_t<T>>(tap->weight[q]) * gv;
            }
          }
        }
      }
    });
  }
  T* px = a.x_grad->data<T>();
  for (size_t i = 0; i < acc.size(); ++i) px[i] = store<T>(acc[i]);
}

template <typename T>
void roi_pool_cpu(const KernelContext& ctx, const RoiPoolArgs& a) {
  const DenseTensor x = a.x.contiguous();
  const int64_t n = x.dim(0), c = x.dim(1), h = x.dim(2), w = x.dim(3);
  const int64_t k = a.boxes.dim(0), ph = a.pooled_height, pw = a.pooled_width;
  const std::vector<int64_t> image = roi::box_images(ctx.op, a.boxes_num, n, k);
  const std::vector<double> boxes = roi::values_of(a.boxes);
  const T* px = x.data<T>();
  T* po = a.out->data<T>();
  int64_t* pa = a.arg_max->data<int64_t>();
  parallel_for(0, k, grain_for(c * ph * pw * 4), [&](int64_t b0, int64_t b1) {
    for (int64_t r = b0; r < b1; ++r) {
      const std::vector<roi::PoolBin> bins =
          roi::pool_bins(&boxes[4 * r], a.spatial_scale, ph, pw, h, w);
      for (int64_t ch = 0; ch < c; ++ch) {
        const T* plane = px + (image[r] * c + ch) * h * w;
        const int64_t o = (r * c + ch) * ph * pw;
        for (int64_t bin = 0; bin < ph * pw; ++bin) {
          const roi::PoolBin& b = bins[bin];
          compute_t<T> best =
              b.empty() ? compute_t<T>(0) : std::numeric_limits<compute_t<T>>::lowest();
          int64_t arg = -1;
          for (int64_t y = b.h0; y < b.h1; ++y) {
            for (int64_t xx = b.w0; xx < b.w1; ++xx) {
              const compute_t<T> v = load(plane[y * w + xx]);
              if (v > best) best = v, arg = y * w + xx;
            }
          }
          po[o + bin] = store<T>(best);
          pa[o + bin] = arg;
        }
      }
    }
  });
}

template <typename T>
void roi_pool_grad_cpu(const KernelContext& ctx, const RoiPoolGradArgs& a) {
  const int64_t n = a.x.dim(0), c = a.x.dim(1), h = a.x.dim(2), w = a.x.dim(3);
  const int64_t k = a.boxes.dim(0), bins = a.pooled_height * a.pooled_width;
  const std::vector<int64_t> image = roi::box_images(ctx.op, a.boxes_num, n, k);
  const DenseTensor g = a.out_grad.contiguous(), arg = a.arg_max.contiguous();
  const T* pg = g.data<T>();
  const int64_t* parg = arg.data<int64_t>();
  for (int64_t i = 0; i < arg.numel(); ++i) {
    SKIFF_ENFORCE(parg[i] >= -1 && parg[i] < h * w, kOutOfRange, ctx.op, "arg_max",
                  str("positions in [-1, ", h * w, ")"), parg[i]);
  }
  std::vector<compute_t<T>> acc(n * c * h * w, compute_t<T>(0));
  // Channels split over threads: every box of a channel adds into that channel's planes only.
  parallel_for(0, c, grain_for(k * bins), [&](int64_t c0, int64_t c1) {
    for (int64_t ch = c0; ch < c1; ++ch) {
      for (int64_t r = 0; r < k; ++r) {
        compute_t<T>* plane = acc.data() + (image[r] * c + ch) * h * w;
        const int64_t o = (r * c + ch) * bins;
        for (int64_t bin = 0; bin < bins; ++bin) {
          if (parg[o + bin] >= 0) plane[parg[o + bin]] += load(pg[o + bin]);
        }
      }
    }
  });
  T* px = a.x_grad->data<T>();
  for (size_t i = 0; i < acc.size(); ++i) px[i] = store<T>(acc[i]);
}

// Greedy suppression with a bitmask of suppressed boxes; the rows after a kept box are
// compared in parallel (each thread marks its own words of the mask).
template <typename T>
void nms_cpu(const KernelContext&, const NmsArgs& a) {
  const int64_t k = a.x.dim(0);
  const std::vector<double> boxes = roi::values_of(a.x);
  std::vector<uint64_t> suppressed((k + 63) / 64, 0);
  std::vector<int64_t> kept;
  for (int64_t i = 0; i < k; ++i) {
    if (suppressed[i / 64] >> (i % 64) & 1) continue;
    kept.push_back(i);
    const int64_t first_word = (i + 1) / 64, words = static_cast<int64_t>(suppressed.size());
    parallel_for(first_word, words, grain_for(64 * 8), [&](int64_t w0, int64_t w1) {
      for (int64_t word = w0; word < w1; ++word) {
        for (int64_t j = std::max(word * 64, i + 1); j < std::min(k, word * 64 + 64); ++j) {
          if (roi::iou_above(&boxes[4 * i], &boxes[4 * j], a.threshold)) {
            suppressed[word] |= uint64_t{1} << (j % 64);
          }
        }
      }
    });
  }
  *a.out = DenseTensor::empty(Dims{static_cast<int64_t>(kept.size())}, DType::kInt64, a.x.place());
  std::copy(kept.begin(), kept.end(), a.out->data<int64_t>());
}

template <typename T>
void box_coder_cpu(const KernelContext&, const BoxCoderArgs& a) {
  const bool encode = a.code_type == "encode_center_size";
  const std::vector<double> prior = roi::values_of(a.prior_box);
  const std::vector<double> var_rows =
      a.prior_box_var ? roi::values_of(*a.prior_box_var) : std::vector<double>{};
  const std::vector<double> var_all =
      a.variance.empty() ? std::vector<double>{1, 1, 1, 1} : a.variance;
  const DenseTensor t = a.target_box.contiguous();
  const T* pt = t.data<T>();
  T* po = a.output_box->data<T>();
  const int64_t rows = t.dim(0), cols = encode ? a.prior_box.dim(0) : t.dim(1);
  const double pixel = a.box_normalized ? 0.0 : 1.0;
  parallel_for(0, rows * cols, grain_for(64), [&](int64_t b, int64_t e) {
    for (int64_t idx = b; idx < e; ++idx) {
      const int64_t i = idx / cols, j = idx % cols;
      const int64_t p = encode || a.axis == 0 ? j : i;
      const double* var = a.prior_box_var ? &var_rows[4 * p] : var_all.data();
      double target[4], out[4];
      const T* src = pt + (encode ? i * 4 : idx * 4);
      for (int q = 0; q < 4; ++q) target[q] = static_cast<double>(load(src[q]));
      if (encode) {
        roi::encode_center_size(&prior[4 * p], target, var, pixel, out);
      } else {
        roi::decode_center_size(&prior[4 * p], target, var, pixel, out);
      }
      for (int q = 0; q < 4; ++q) po[idx * 4 + q] = store<T>(static_cast<compute_t<T>>(out[q]));
    }
  });
}

SKIFF_INSTANTIATE_KERNEL(roi_align, cpu)
SKIFF_INSTANTIATE_KERNEL(roi_align_grad, cpu)
SKIFF_INSTANTIATE_KERNEL(roi_pool, cpu)
SKIFF_INSTANTIATE_KERNEL(roi_pool_grad, cpu)
SKIFF_INSTANTIATE_KERNEL(nms, cpu)
SKIFF_INSTANTIATE_KERNEL(box_coder, cpu)

}  // namespace skiff::ops
