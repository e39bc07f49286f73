// Reference kernels of weight-only quantization: the layout's definition as plain float64 loops
// (one value at a time through quant_layout.h), the oracle of the CPU kernels.
#include "skiff/ops/generated/kernels/quant.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/quant_layout.h"

namespace skiff::ops {

namespace {

// Any floating or integer tensor's values in row-major order, as float64.
std::vector<double> doubles(const DenseTensor& t) {
  const DenseTensor c = t.contiguous();
  std::vector<double> v(c.numel());
  visit_dtype(c.dtype(), [&](auto tag) {
    using S = decltype(tag);
    const S* p = static_cast<const S*>(c.raw_data());
    for (size_t i = 0; i < v.size(); ++i)
      v[i] = static_cast<double>(static_cast<compute_t<S>>(p[i]));
  });
  return v;
}

// Value (j, i) of the dequantized weight: row j, input feature i.
double weight_at(const DenseTensor& w, const std::vector<double>& scales, const quant::Format& f,
                 int64_t n, int64_t j, int64_t i) {
  const int8_t* row = w.data<int8_t>() + j * w.dim(1);
  const double s = f.group < 0 ? scales[j] : scales[(i / f.group) * n + j];
  return quant::value_at(row, i, f.bits) * s;
}

}  // namespace

template <typename T>
void weight_quantize_reference(const KernelContext& ctx, const WeightQuantizeArgs& a) {
  const quant::Format f = quant::format_of_algo(ctx.op, a.algo, a.group_size);
  const std::vector<double> x = doubles(a.x);
  const int64_t k = a.x.dim(0), n = a.x.dim(1);
  const int64_t span = f.group < 0 ? std::max<int64_t>(k, 1) : f.group;
  const int64_t groups = f.scale_rows(k), row_bytes = f.row_bytes(k);
  std::vector<double> scale(groups * n, 0.0);
  for (int64_t i = 0; i < k; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      const double v = x[i * n + j];
      SKIFF_ENFORCE(std::isfinite(v), kInvalidArgument, ctx.op, "x", "finite weights",
                    str("a NaN or infinite value in column ", j));
      double& m = scale[(i / span) * n + j];
      m = std::max(m, std::abs(v));
    }
  }
  for (double& s : scale) s /= f.bound();
  if (f.float32_scale) {
    float* ps = a.scale->template data<float>();
    for (size_t i = 0; i < scale.size(); ++i) ps[i] = static_cast<float>(scale[i]);
  } else {
    T* ps = a.scale->template data<T>();
    for (size_t i = 0; i < scale.size(); ++i) ps[i] = static_cast<T>(scale[i]);
  }
  int8_t* po = a.out->data<int8_t>();
  std::memset(po, 0, n * row_bytes);
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = 0; i < k; ++i) {
      const int q = quant::quantize_value(x[i * n + j], scale[(i / span) * n + j], f.bound());
      quant::set_value(po + j * row_bytes, i, q, f.bits);
    }
  }
}
SKIFF_INSTANTIATE_KERNEL(weight_quantize, reference)

template <typename T>
void weight_dequantize_reference(const KernelContext& ctx, const WeightDequantizeArgs& a) {
  const quant::Format f = quant::format_of_algo(ctx.op, a.algo, a.group_size);
  const DenseTensor w = a.x.contiguous();
  const std::vector<double> scales = doubles(a.scale);
  const int64_t n = w.dim(0), k = f.row_values(w.dim(1));
  T* po = a.out->data<T>();
  for (int64_t i = 0; i < k; ++i) {
    for (int64_t j = 0; j < n; ++j)
      po[i * n + j] = static_cast<T>(weight_at(w, scales, f, n, j, i));
  }
}
SKIFF_INSTANTIATE_KERNEL(weight_dequantize, reference)

template <typename T>
void weight_only_linear_reference(const KernelContext& ctx, const WeightOnlyLinearArgs& a) {
  const quant::Format f = quant::format_of_weight_dtype(ctx.op, a.weight_dtype, a.group_size);
  const DenseTensor w = a.weight.contiguous();
  const std::vector<double> x = doubles(a.x), scales = doubles(a.weight_scale);
  const std::vector<double> bias = a.bias ? doubles(*a.bias) : std::vector<double>{};
  const int64_t k = a.x.dim(a.x.rank() - 1), n = w.dim(0);
  const int64_t m = n == 0 ? 0 : a.out->numel() / n;
  T* po = a.out->data<T>();
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t j = 0; j < n; ++j) {
      double acc = bias.empty() ? 0.0 : bias[j];
      for (int64_t i = 0; i < k; ++i) acc += x[r * k + i] * weight_at(w, scales, f, n, j, i);
      po[r * n + j] = static_cast<T>(acc);
    }
  }
}
SKIFF_INSTANTIATE_KERNEL(weight_only_linear, reference)

template <typename T>
void llm_int8_linear_reference(const KernelContext&, const LlmInt8LinearArgs& a) {
  const DenseTensor w = a.weight.contiguous();
  const std::vector<double> x = doubles(a.x), scales = doubles(a.weight_scale);
  const std::vector<double> bias = a.bias ? doubles(*a.bias) : std::vector<double>{};
  const int64_t k = a.x.dim(a.x.rank() - 1), n = w.dim(0);
  const int64_t m = n == 0 ? 0 : a.out->numel() / n;
  std::vector<bool> outlier(k, false);
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t i = 0; i < k; ++i) {
      if (quant::llm_int8_outlier(static_cast<float>(x[r * k + i]), a.threshold)) outlier[i] = true;
    }
  }
  const int8_t* pw = w.data<int8_t>();
  T* po = a.out->data<T>();
  for (int64_t r = 0; r < m; ++r) {
    float range = 0.0f;
    for (int64_t i = 0; i < k; ++i) {
      if (!outlier[i]) range = std::max(range, std::fabs(static_cast<float>(x[r * k + i])));
    }
    const float inv = quant::llm_int8_inverse_step(range), step = quant::llm_int8_step(range);
    for (int64_t j = 0; j < n; ++j) {
      int64_t sum = 0;  // the int8 part, exact
      double fp = bias.empty() ? 0.0 : bias[j];
      for (int64_t i = 0; i < k; ++i) {
        const double v = x[r * k + i];
        if (outlier[i]) {
          fp += v * pw[j * k + i] * scales[j];
        } else {
          sum += quant::llm_int8_level(static_cast<float>(v), inv) * pw[j * k + i];
        }
      }
      po[r * n + j] = static_cast<T>(fp + static_cast<double>(sum) * step * scales[j]);
    }
  }
}
SKIFF_INSTANTIATE_KERNEL(llm_int8_linear, reference)

template <typename T>
void weight_only_linear_grad_reference(const KernelContext& ctx,
                                       const WeightOnlyLinearGradArgs& a) {
  const quant::Format f = quant::format_of_weight_dtype(ctx.op, a.weight_dtype, a.group_size);
  const DenseTensor w = a.weight.contiguous();
  const std::vector<double> g = doubles(a.out_grad), scales = doubles(a.weight_scale);
  const int64_t k = a.x.dim(a.x.rank() - 1), n = w.dim(0);
  const int64_t m = k == 0 ? 0 : a.x_grad->numel() / k;
  T* pgx = a.x_grad->data<T>();
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t i = 0; i < k; ++i) {
      double acc = 0.0;
      for (int64_t j = 0; j < n; ++j) acc += g[r * n + j] * weight_at(w, scales, f, n, j, i);
      pgx[r * k + i] = static_cast<T>(acc);
    }
  }
}
SKIFF_INSTANTIATE_KERNEL(weight_only_linear_grad, reference)

}  // namespace skiff::ops
