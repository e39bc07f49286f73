// Reference kernels of conv2d and pool2d: naive float64 loops over every output element.
#include "skiff/ops/generated/kernels/conv.h"

#include <algorithm>
#include <cmath>
#include <limits>

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
}  // namespace

template <typename T>
void conv2d_reference(const KernelContext& ctx, const Conv2dArgs& a) {
  const meta::Window2d g =
      meta::conv2d_window(ctx.op, a.input.dims(), a.filter.dims(), a.strides, a.paddings,
                          a.padding_algorithm, a.dilations, a.groups, a.data_format);
  const DenseTensor &in = a.input, &f = a.filter;
  DenseTensor& out = *a.out;
  const int64_t cg = g.c / g.groups, ocg = g.oc / g.groups;
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t oc = 0; oc < g.oc; ++oc) {
      for (int64_t oh = 0; oh < g.oh; ++oh) {
        for (int64_t ow = 0; ow < g.ow; ++ow) {
          double s = 0;
          for (int64_t ci = 0; ci < cg; ++ci) {
            for (int64_t i = 0; i < g.kh; ++i) {
              for (int64_t j = 0; j < g.kw; ++j) {
                const int64_t h = oh * g.stride_h - g.pad_top + i * g.dil_h;
                const int64_t w = ow * g.stride_w - g.pad_left + j * g.dil_w;
                if (h < 0 || h >= g.h || w < 0 || w >= g.w) continue;
                const int64_t c = (oc / ocg) * cg + ci;
                const int64_t fo = oc * f.strides()[0] + ci * f.strides()[1] + i * f.strides()[2] +
                                   j * f.strides()[3];
                s += static_cast<double>(get<T>(in, at(in, g.nhwc, n, c, h, w))) *
                     static_cast<double>(get<T>(f, fo));
              }
            }
          }
          set<T>(out, at(out, g.nhwc, n, oc, oh, ow), static_cast<T>(s));
        }
      }
    }
  }
}
SKIFF_INSTANTIATE_KERNEL(conv2d, reference)

template <typename T>
void pool2d_reference(const KernelContext& ctx, const Pool2dArgs& a) {
  const meta::Window2d g =
      meta::pool2d_window(ctx.op, a.x.dims(), a.kernel_size, a.strides, a.paddings, a.ceil_mode,
                          a.data_format, a.global_pooling, a.adaptive, a.padding_algorithm);
  const DenseTensor& x = a.x;
  DenseTensor& out = *a.out;
  const bool is_max = a.pooling_type == "max";
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t c = 0; c < g.c; ++c) {
      for (int64_t oh = 0; oh < g.oh; ++oh) {
        for (int64_t ow = 0; ow < g.ow; ++ow) {
          int64_t h0, h1, w0, w1;
          if (a.adaptive) {  // floor(i * in / out) .. ceil((i + 1) * in / out)
            h0 = oh * g.h / g.oh;
            h1 = ((oh + 1) * g.h + g.oh - 1) / g.oh;
            w0 = ow * g.w / g.ow;
            w1 = ((ow + 1) * g.w + g.ow - 1) / g.ow;
          } else {  // the window clipped to the input
            h0 = std::max<int64_t>(oh * g.stride_h - g.pad_top, 0);
            h1 = std::min<int64_t>(oh * g.stride_h - g.pad_top + g.kh, g.h);
            w0 = std::max<int64_t>(ow * g.stride_w - g.pad_left, 0);
            w1 = std::min<int64_t>(ow * g.stride_w - g.pad_left + g.kw, g.w);
          }
          double acc = is_max ? -std::numeric_limits<double>::infinity() : 0.0;
          for (int64_t h = h0; h < h1; ++h) {
            for (int64_t w = w0; w < w1; ++w) {
              const double v = static_cast<double>(get<T>(x, at(x, g.nhwc, n, c, h, w)));
              if (is_max) {
                if (std::isnan(v) || v > acc) acc = v;
              } else {
                acc += v;
              }
            }
          }
          if (!is_max) {
            const bool exclusive = a.exclusive || a.adaptive;
            const double count =
                exclusive ? static_cast<double>((h1 - h0) * (w1 - w0)) : double(g.kh * g.kw);
            acc = count > 0 ? acc / count : 0.0;
          }
          set<T>(out, at(out, g.nhwc, n, c, oh, ow), static_cast<T>(acc));
        }
      }
    }
  }
}
SKIFF_INSTANTIATE_KERNEL(pool2d, reference)

}  // namespace skiff::ops
