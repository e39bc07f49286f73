// CPU kernels of conv2d and pool2d. conv2d runs on oneDNN for float32 and bfloat16 (float16
// through float32), float64 on a direct loop. Pooling is a direct window loop for every dtype,
// computing in float (double for float64), parallel over output rows.
#include "skiff/ops/generated/kernels/conv.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "skiff/core/parallel.h"
#include "skiff/ops/generated/dense/elementwise.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/isa.h"
#include "skiff/ops/kernels/cpu/onednn.h"
#include "skiff/ops/meta/conv_meta.h"

namespace skiff::ops {

namespace {

// Direct convolution for float64: parallel over (n, oc, oh) output rows.
void conv2d_direct_f64(const meta::Window2d& g, const double* in, const double* f, double* out) {
  const meta::LayoutStrides si = meta::layout_strides(g.nhwc, g.c, g.h, g.w);
  const meta::LayoutStrides so = meta::layout_strides(g.nhwc, g.oc, g.oh, g.ow);
  const int64_t cg = g.c / g.groups, ocg = g.oc / g.groups;
  const int64_t rows = g.n * g.oc * g.oh;
  const int64_t grain =
      std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(g.ow * cg * g.kh * g.kw, 1));
  parallel_for(0, rows, grain, [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const int64_t oh = r % g.oh, oc = (r / g.oh) % g.oc, n = r / (g.oh * g.oc);
      const int64_t grp = oc / ocg;
      for (int64_t ow = 0; ow < g.ow; ++ow) {
        double acc = 0;
        for (int64_t ci = 0; ci < cg; ++ci) {
          const int64_t c = grp * cg + ci;
          for (int64_t i = 0; i < g.kh; ++i) {
            const int64_t h = oh * g.stride_h - g.pad_top + i * g.dil_h;
            if (h < 0 || h >= g.h) continue;
            for (int64_t j = 0; j < g.kw; ++j) {
              const int64_t w = ow * g.stride_w - g.pad_left + j * g.dil_w;
              if (w < 0 || w >= g.w) continue;
              acc += in[n * si.n + c * si.c + h * si.h + w * si.w] *
                     f[((oc * cg + ci) * g.kh + i) * g.kw + j];
            }
          }
        }
        out[n * so.n + oc * so.c + oh * so.h + ow * so.w] = acc;
      }
    }
  });
}

}  // namespace

template <typename T>
void conv2d_cpu(const KernelContext& ctx, const Conv2dArgs& a) {
  DenseTensor& out = *a.out;
  if (out.numel() == 0) return;
  const meta::Window2d g =
      meta::conv2d_window(ctx.op, a.input.dims(), a.filter.dims(), a.strides, a.paddings,
                          a.padding_algorithm, a.dilations, a.groups, a.data_format);
  const DenseTensor in = a.input.contiguous(), f = a.filter.contiguous();
  if constexpr (std::is_same_v<T, double>) {
    conv2d_direct_f64(g, in.data<double>(), f.data<double>(), out.data<double>());
  } else {
    if constexpr (!std::is_same_v<T, float16>) {
      if (cpu::onednn::conv2d(dtype_v<T>, g, in, f, out)) return;
    }
    // float16, or a dtype oneDNN cannot run here: compute in float32.
    DenseTensor of = DenseTensor::empty(out.dims(), DType::kFloat32);
    const bool ok = cpu::onednn::conv2d(DType::kFloat32, g, dense::cast(in, DType::kFloat32),
                                        dense::cast(f, DType::kFloat32), of);
    SKIFF_ENFORCE(ok, kInternal, ctx.op, "input", "a convolution oneDNN can run", in.dims());
    out.copy_from(dense::cast(of, dtype_v<T>));
  }
}
SKIFF_INSTANTIATE_KERNEL(conv2d, cpu)

template <typename T>
void pool2d_cpu(const KernelContext& ctx, const Pool2dArgs& a) {
  DenseTensor& out = *a.out;
  if (out.numel() == 0) return;
  const meta::Window2d g =
      meta::pool2d_window(ctx.op, a.x.dims(), a.kernel_size, a.strides, a.paddings, a.ceil_mode,
                          a.data_format, a.global_pooling, a.adaptive, a.padding_algorithm);
  const DenseTensor x = a.x.contiguous();
  const T* in = static_cast<const T*>(x.raw_data());
  T* op = out.data<T>();
  const bool is_max = a.pooling_type == "max";
  const bool exclusive = a.exclusive || a.adaptive;
  using C = compute_t<T>;
  // Window [begin, end) of output index o along a dim of input size `in` (clipped to it).
  auto window = [&](int64_t o, int64_t size, int64_t out_size, int64_t k, int64_t stride,
                    int64_t pad, int64_t* b, int64_t* e) {
    if (a.adaptive) {
      *b = o * size / out_size;
      *e = ((o + 1) * size + out_size - 1) / out_size;
    } else {
      *b = std::max<int64_t>(o * stride - pad, 0);
      *e = std::min(o * stride - pad + k, size);
    }
  };
  auto divisor = [&](int64_t h0, int64_t h1, int64_t w0, int64_t w1) {
    const int64_t count = exclusive ? (h1 - h0) * (w1 - w0) : g.kh * g.kw;
    return count > 0 ? C(1) / static_cast<C>(count) : C(0);
  };
  const C init = is_max ? -std::numeric_limits<C>::infinity() : C(0);
  if (!g.nhwc) {
    // One task per (n, c, oh) output row; the window walks contiguous input rows.
    const int64_t rows = g.n * g.c * g.oh;
    const int64_t grain =
        std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(g.ow * g.kh * g.kw, 1));
    parallel_for(0, rows, grain, [&](int64_t b, int64_t e) {
      cpu::run_best_isa([&] {
        for (int64_t r = b; r < e; ++r) {
          const int64_t oh = r % g.oh, plane = r / g.oh;
          const T* base = in + plane * g.h * g.w;
          T* orow = op + plane * g.oh * g.ow + oh * g.ow;
          int64_t h0, h1;
          window(oh, g.h, g.oh, g.kh, g.stride_h, g.pad_top, &h0, &h1);
          for (int64_t ow = 0; ow < g.ow; ++ow) {
            int64_t w0, w1;
            window(ow, g.w, g.ow, g.kw, g.stride_w, g.pad_left, &w0, &w1);
            C acc = init;
            bool nan = false;
            for (int64_t h = h0; h < h1; ++h) {
              for (int64_t w = w0; w < w1; ++w) {
                const C v = static_cast<C>(base[h * g.w + w]);
                if (is_max) {
                  // Branch-free max (a data-dependent branch mispredicts); NaN kept aside.
                  acc = v > acc ? v : acc;
                  nan |= v != v;
                } else {
                  acc += v;
                }
              }
            }
            if (is_max && nan) acc = std::numeric_limits<C>::quiet_NaN();  // NaN propagates
            orow[ow] = static_cast<T>(is_max ? acc : acc * divisor(h0, h1, w0, w1));
          }
        }
      });
    });
    return;
  }
  // NHWC: one task per (n, oh); channels are the contiguous, vectorized inner loop.
  const int64_t rows = g.n * g.oh;
  const int64_t grain =
      std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(g.ow * g.c * g.kh * g.kw, 1));
  parallel_for(0, rows, grain, [&](int64_t b, int64_t e) {
    std::vector<C> acc(static_cast<size_t>(g.c));
    cpu::run_best_isa([&] {
      for (int64_t r = b; r < e; ++r) {
        const int64_t n = r / g.oh, oh = r % g.oh;
        int64_t h0, h1;
        window(oh, g.h, g.oh, g.kh, g.stride_h, g.pad_top, &h0, &h1);
        for (int64_t ow = 0; ow < g.ow; ++ow) {
          int64_t w0, w1;
          window(ow, g.w, g.ow, g.kw, g.stride_w, g.pad_left, &w0, &w1);
          std::fill(acc.begin(), acc.end(), init);
          C* ac = acc.data();
          for (int64_t h = h0; h < h1; ++h) {
            for (int64_t w = w0; w < w1; ++w) {
              const T* px = in + ((n * g.h + h) * g.w + w) * g.c;
              if (is_max) {
                for (int64_t c = 0; c < g.c; ++c) {
                  const C v = static_cast<C>(px[c]);
                  ac[c] = (v > ac[c] || v != v) ? v : ac[c];
                }
              } else {
                for (int64_t c = 0; c < g.c; ++c) ac[c] += static_cast<C>(px[c]);
              }
            }
          }
          T* po = op + ((n * g.oh + oh) * g.ow + ow) * g.c;
          const C scale = is_max ? C(1) : divisor(h0, h1, w0, w1);
          for (int64_t c = 0; c < g.c; ++c) po[c] = static_cast<T>(ac[c] * scale);
        }
      }
    });
  });
}
SKIFF_INSTANTIATE_KERNEL(pool2d, cpu)

}  // namespace skiff::ops
