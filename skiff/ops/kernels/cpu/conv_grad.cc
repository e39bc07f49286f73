// CPU kernels of conv2d_grad and pool2d_grad. conv2d_grad runs oneDNN's backward-data and
// backward-weights primitives for float32 and bfloat16 (float16 through float32), float64 (and
// any configuration oneDNN has no implementation for) on direct loops. pool2d_grad walks the
// forward windows again, accumulating in float (double for float64), parallel over planes.
#include <algorithm>
#include <vector>
#include <type_traits>

#include "skiff/core/parallel.h"
#include "skiff/ops/generated/dense/elementwise.h"
#include "skiff/ops/generated/kernels/conv.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/onednn.h"
#include "skiff/ops/meta/conv_meta.h"

namespace skiff::ops {

namespace {

// Direct gradients in float64: the input's parallel over images, the filter's over output
// channels (each task owns the elements it accumulates into).
void conv2d_grad_direct_f64(const meta::Window2d& g, const double* in, const double* f,
                            const double* go, double* gi, double* gf) {
  const meta::LayoutStrides si = meta::layout_strides(g.nhwc, g.c, g.h, g.w);
  const meta::LayoutStrides so = meta::layout_strides(g.nhwc, g.oc, g.oh, g.ow);
  const int64_t cg = g.c / g.groups, ocg = g.oc / g.groups;
  std::fill(gi, gi + g.n * g.c * g.h * g.w, 0.0);
  std::fill(gf, gf + g.oc * cg * g.kh * g.kw, 0.0);
  auto each_tap = [&](int64_t n, int64_t oc, const auto& fn) {
    const int64_t grp = oc / ocg;
    for (int64_t oh = 0; oh < g.oh; ++oh) {
      for (int64_t ow = 0; ow < g.ow; ++ow) {
        const double gv = go[n * so.n + oc * so.c + oh * so.h + ow * so.w];
        for (int64_t ci = 0; ci < cg; ++ci) {
          const int64_t c = grp * cg + ci;
          for (int64_t i = 0; i < g.kh; ++i) {
            const int64_t h = oh * g.stride_h - g.pad_top + i * g.dil_h;
            if (h < 0 || h >= g.h) continue;
            for (int64_t j = 0; j < g.kw; ++j) {
              const int64_t w = ow * g.stride_w - g.pad_left + j * g.dil_w;
              if (w < 0 || w >= g.w) continue;
              fn(gv, n * si.n + c * si.c + h * si.h + w * si.w,
                 ((oc * cg + ci) * g.kh + i) * g.kw + j);
            }
          }
        }
      }
    }
  };
  parallel_for(0, g.n, 1, [&](int64_t b, int64_t e) {
    for (int64_t n = b; n < e; ++n) {
      for (int64_t oc = 0; oc < g.oc; ++oc) {
        each_tap(n, oc, [&](double gv, int64_t xi, int64_t fi) { gi[xi] += gv * f[fi]; });
      }
    }
  });
  parallel_for(0, g.oc, 1, [&](int64_t b, int64_t e) {
    for (int64_t oc = b; oc < e; ++oc) {
      for (int64_t n = 0; n < g.n; ++n) {
        each_tap(n, oc, [&](double gv, int64_t xi, int64_t fi) { gf[fi] += gv * in[xi]; });
      }
    }
  });
}

// Runs only the primitives of the wanted outputs (a masked output is empty).
bool conv2d_grad_onednn(DType dtype, const meta::Window2d& g, const DenseTensor& in,
                        const DenseTensor& f, const DenseTensor& go, DenseTensor& gi,
                        DenseTensor& gf, bool want_input, bool want_filter) {
  return (!want_input || cpu::onednn::conv2d_backward_data(dtype, g, go, f, gi)) &&
         (!want_filter || cpu::onednn::conv2d_backward_weights(dtype, g, in, go, gf));
}

}  // namespace

template <typename T>
void conv2d_grad_cpu(const KernelContext& ctx, const Conv2dGradArgs& a) {
  DenseTensor &gi = *a.input_grad, &gf = *a.filter_grad;
  const meta::Window2d g =
      meta::conv2d_window(ctx.op, a.input.dims(), a.filter.dims(), a.strides, a.paddings,
                          a.padding_algorithm, a.dilations, a.groups, a.data_format);
  const bool want_input = a.output_mask[0] != 0, want_filter = a.output_mask[1] != 0;
  if (gi.numel() == 0 && gf.numel() == 0) return;
  const DenseTensor in = a.input.contiguous(), f = a.filter.contiguous();
  const DenseTensor go = a.out_grad.contiguous();
  if constexpr (!std::is_same_v<T, double> && !std::is_same_v<T, float16>) {
    if (go.numel() > 0 &&
        conv2d_grad_onednn(dtype_v<T>, g, in, f, go, gi, gf, want_input, want_filter)) {
      return;
    }
  }
  if constexpr (!std::is_same_v<T, double>) {
    // float16, or no oneDNN implementation here: float32 through oneDNN if it can.
    DenseTensor gi32 = DenseTensor::empty(gi.dims(), DType::kFloat32);
    DenseTensor gf32 = DenseTensor::empty(gf.dims(), DType::kFloat32);
    if (go.numel() > 0 && conv2d_grad_onednn(DType::kFloat32, g, dense::cast(in, DType::kFloat32),
                                             dense::cast(f, DType::kFloat32),
                                             dense::cast(go, DType::kFloat32), gi32, gf32,
                                             want_input, want_filter)) {
      if (want_input) gi.copy_from(dense::cast(gi32, dtype_v<T>));
      if (want_filter) gf.copy_from(dense::cast(gf32, dtype_v<T>));
      return;
    }
  }
  // The direct loops compute both gradients; a masked one is dropped.
  const DenseTensor in64 = dense::cast(in, DType::kFloat64), f64 = dense::cast(f, DType::kFloat64);
  const DenseTensor go64 = dense::cast(go, DType::kFloat64);
  DenseTensor gi64 = DenseTensor::empty(a.input.dims(), DType::kFloat64);
  DenseTensor gf64 = DenseTensor::empty(a.filter.dims(), DType::kFloat64);
  conv2d_grad_direct_f64(g, in64.data<double>(), f64.data<double>(), go64.data<double>(),
                         gi64.data<double>(), gf64.data<double>());
  if (want_input) gi.copy_from(std::is_same_v<T, double> ? gi64 : dense::cast(gi64, dtype_v<T>));
  if (want_filter) gf.copy_from(std::is_same_v<T, double> ? gf64 : dense::cast(gf64, dtype_v<T>));
}
SKIFF_INSTANTIATE_KERNEL(conv2d_grad, cpu)

template <typename T>
void pool2d_grad_cpu(const KernelContext& ctx, const Pool2dGradArgs& a) {
  DenseTensor& dx = *a.x_grad;
  if (dx.numel() == 0) return;
  const meta::Window2d g =
      meta::pool2d_window(ctx.op, a.x.dims(), a.kernel_size, a.strides, a.paddings, a.ceil_mode,
                          a.data_format, a.global_pooling, a.adaptive, a.padding_algorithm);
  const DenseTensor x = a.x.contiguous(), out = a.out.contiguous(), go = a.out_grad.contiguous();
  const T* px = static_cast<const T*>(x.raw_data());
  const T* pout = static_cast<const T*>(out.raw_data());
  const T* pgo = static_cast<const T*>(go.raw_data());
  using C = compute_t<T>;
  // Accumulate in place where T is its own compute type; 16-bit floats go through a buffer.
  std::vector<C> buffer;
  C* acc;
  if constexpr (std::is_same_v<C, T>) {
    acc = dx.data<T>();
    std::fill(acc, acc + dx.numel(), C(0));
  } else {
    buffer.assign(static_cast<size_t>(dx.numel()), C(0));
    acc = buffer.data();
  }
  const bool is_max = a.pooling_type == "max";
  const bool exclusive = a.exclusive || a.adaptive;
  const meta::LayoutStrides sx = meta::layout_strides(g.nhwc, g.c, g.h, g.w);
  const meta::LayoutStrides so = meta::layout_strides(g.nhwc, g.c, g.oh, g.ow);
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
  // Planes (n, c) own disjoint input elements in either layout.
  parallel_for(0, g.n * g.c, 1, [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) {
      const int64_t n = p / g.c, c = p % g.c;
      const int64_t xb = n * sx.n + c * sx.c, ob = n * so.n + c * so.c;
      for (int64_t oh = 0; oh < g.oh; ++oh) {
        int64_t h0, h1;
        window(oh, g.h, g.oh, g.kh, g.stride_h, g.pad_top, &h0, &h1);
        for (int64_t ow = 0; ow < g.ow; ++ow) {
          int64_t w0, w1;
          window(ow, g.w, g.ow, g.kw, g.stride_w, g.pad_left, &w0, &w1);
          const int64_t o = ob + oh * so.h + ow * so.w;
          const C gv = static_cast<C>(pgo[o]);
          if (is_max) {
            // The gradient goes to the first element equal to the maximum (as Paddle).
            // Branch-free search (a data-dependent early exit mispredicts): the last match
            // seen walking the window backwards is the first one.
            const C m = static_cast<C>(pout[o]);
            int64_t first = -1;
            for (int64_t h = h1 - 1; h >= h0; --h) {
              for (int64_t w = w1 - 1; w >= w0; --w) {
                const int64_t i = xb + h * sx.h + w * sx.w;
                first = static_cast<C>(px[i]) == m ? i : first;
              }
            }
            if (first >= 0) acc[first] += gv;
            continue;
          }
          const int64_t count = exclusive ? (h1 - h0) * (w1 - w0) : g.kh * g.kw;
          if (count <= 0) continue;
          const C share = gv / static_cast<C>(count);
          for (int64_t h = h0; h < h1; ++h) {
            for (int64_t w = w0; w < w1; ++w) acc[xb + h * sx.h + w * sx.w] += share;
          }
        }
      }
    }
  });
  if constexpr (!std::is_same_v<C, T>) {
    T* pdx = dx.data<T>();
    parallel_for(0, dx.numel(), kParallelGrain, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) pdx[i] = static_cast<T>(acc[i]);
    });
  }
}
SKIFF_INSTANTIATE_KERNEL(pool2d_grad, cpu)

}  // namespace skiff::ops
