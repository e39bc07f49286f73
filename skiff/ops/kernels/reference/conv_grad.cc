// Reference kernels of conv2d_grad and pool2d_grad: naive float64 loops over every output
// element, accumulating into float64 buffers (the oracle of the CPU kernels).
#include <algorithm>
#include <vector>

#include "skiff/ops/generated/kernels/conv.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/reference/ref_loops.h"
#include "skiff/ops/meta/conv_meta.h"

namespace skiff::ops {

using reference::get;
using reference::set;

namespace {
// Storage offset of element (n, c, h, w) of a 4-D tensor in NCHW or NHWC layout.
int64_t at(const DenseTensor& t, bool nhwc, int64_t n, int64_t c, int64_t h, int64_t w) {
  return meta::offset_4d(t.strides(), nhwc, n, c, h, w);
}
// Dense index of (n, c, h, w) in an accumulation buffer of the tensor's dims and layout.
int64_t flat(bool nhwc, int64_t c_, int64_t h_, int64_t w_, int64_t n, int64_t c, int64_t h,
             int64_t w) {
  return nhwc ? ((n * h_ + h) * w_ + w) * c_ + c : ((n * c_ + c) * h_ + h) * w_ + w;
}
template <typename T>
void store(DenseTensor& t, bool nhwc, int64_t c_, int64_t h_, int64_t w_,
           const std::vector<double>& v) {
  const Dims& d = t.dims();
  for (int64_t n = 0; n < d[0]; ++n)
    for (int64_t c = 0; c < c_; ++c)
      for (int64_t h = 0; h < h_; ++h)
        for (int64_t w = 0; w < w_; ++w)
          set<T>(t, at(t, nhwc, n, c, h, w), static_cast<T>(v[flat(nhwc, c_, h_, w_, n, c, h, w)]));
}
}  // namespace

template <typename T>
void conv2d_grad_reference(const KernelContext& ctx, const Conv2dGradArgs& a) {
  const meta::Window2d g =
      meta::conv2d_window(ctx.op, a.input.dims(), a.filter.dims(), a.strides, a.paddings,
                          a.padding_algorithm, a.dilations, a.groups, a.data_format);
  const DenseTensor &in = a.input, &f = a.filter, &go = a.out_grad;
  const int64_t cg = g.c / g.groups, ocg = g.oc / g.groups;
  std::vector<double> gi(static_cast<size_t>(g.n * g.c * g.h * g.w), 0.0);
  std::vector<double> gf(static_cast<size_t>(g.oc * cg * g.kh * g.kw), 0.0);
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t oc = 0; oc < g.oc; ++oc) {
      for (int64_t oh = 0; oh < g.oh; ++oh) {
        for (int64_t ow = 0; ow < g.ow; ++ow) {
          const double gv = static_cast<double>(get<T>(go, at(go, g.nhwc, n, oc, oh, ow)));
          for (int64_t ci = 0; ci < cg; ++ci) {
            for (int64_t i = 0; i < g.kh; ++i) {
              for (int64_t j = 0; j < g.kw; ++j) {
                const int64_t h = oh * g.stride_h - g.pad_top + i * g.dil_h;
                const int64_t w = ow * g.stride_w - g.pad_left + j * g.dil_w;
                if (h < 0 || h >= g.h || w < 0 || w >= g.w) continue;
                const int64_t c = (oc / ocg) * cg + ci;
                const int64_t fo = oc * f.strides()[0] + ci * f.strides()[1] + i * f.strides()[2] +
                                   j * f.strides()[3];
                gi[flat(g.nhwc, g.c, g.h, g.w, n, c, h, w)] +=
                    gv * static_cast<double>(get<T>(f, fo));
                gf[((oc * cg + ci) * g.kh + i) * g.kw + j] +=
                    gv * static_cast<double>(get<T>(in, at(in, g.nhwc, n, c, h, w)));
              }
            }
          }
        }
      }
    }
  }
  // A masked output is empty (conv2d_grad_meta).
  if (a.output_mask[0]) store<T>(*a.input_grad, g.nhwc, g.c, g.h, g.w, gi);
  if (a.output_mask[1]) store<T>(*a.filter_grad, false, cg, g.kh, g.kw, gf);  // [OC, C/G, KH, KW]
}
SKIFF_INSTANTIATE_KERNEL(conv2d_grad, reference)

template <typename T>
void pool2d_grad_reference(const KernelContext& ctx, const Pool2dGradArgs& a) {
  const meta::Window2d g =
      meta::pool2d_window(ctx.op, a.x.dims(), a.kernel_size, a.strides, a.paddings, a.ceil_mode,
                          a.data_format, a.global_pooling, a.adaptive, a.padding_algorithm);
  const DenseTensor &x = a.x, &out = a.out, &go = a.out_grad;
  const bool is_max = a.pooling_type == "max";
  std::vector<double> dx(static_cast<size_t>(g.n * g.c * g.h * g.w), 0.0);
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t c = 0; c < g.c; ++c) {
      for (int64_t oh = 0; oh < g.oh; ++oh) {
        for (int64_t ow = 0; ow < g.ow; ++ow) {
          int64_t h0, h1, w0, w1;
          if (a.adaptive) {
            h0 = oh * g.h / g.oh;
            h1 = ((oh + 1) * g.h + g.oh - 1) / g.oh;
            w0 = ow * g.w / g.ow;
            w1 = ((ow + 1) * g.w + g.ow - 1) / g.ow;
          } else {
            h0 = std::max<int64_t>(oh * g.stride_h - g.pad_top, 0);
            h1 = std::min<int64_t>(oh * g.stride_h - g.pad_top + g.kh, g.h);
            w0 = std::max<int64_t>(ow * g.stride_w - g.pad_left, 0);
            w1 = std::min<int64_t>(ow * g.stride_w - g.pad_left + g.kw, g.w);
          }
          const double gv = static_cast<double>(get<T>(go, at(go, g.nhwc, n, c, oh, ow)));
          if (is_max) {
            const double m = static_cast<double>(get<T>(out, at(out, g.nhwc, n, c, oh, ow)));
            bool done = false;
            for (int64_t h = h0; h < h1 && !done; ++h) {
              for (int64_t w = w0; w < w1 && !done; ++w) {
                if (static_cast<double>(get<T>(x, at(x, g.nhwc, n, c, h, w))) == m) {
                  dx[flat(g.nhwc, g.c, g.h, g.w, n, c, h, w)] += gv;
                  done = true;
                }
              }
            }
            continue;
          }
          const bool exclusive = a.exclusive || a.adaptive;
          const double count =
              exclusive ? static_cast<double>((h1 - h0) * (w1 - w0)) : double(g.kh * g.kw);
          if (count <= 0) continue;
          for (int64_t h = h0; h < h1; ++h) {
            for (int64_t w = w0; w < w1; ++w)
              dx[flat(g.nhwc, g.c, g.h, g.w, n, c, h, w)] += gv / count;
          }
        }
      }
    }
  }
  store<T>(*a.x_grad, g.nhwc, g.c, g.h, g.w, dx);
}
SKIFF_INSTANTIATE_KERNEL(pool2d_grad, reference)

}  // namespace skiff::ops
