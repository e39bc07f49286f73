// CPU kernels of weight-only quantization (quant.yaml; layout in kernels/quant_layout.h).
// Arithmetic is float (double for float64 tensors). weight_only_linear reads each quantized
// row once and converts it as it goes: batches of up to kDirectRows rows (decode) take dot
// products against the converted row, so the float weight never exists; larger batches convert
// kBlock rows at a time into a scratch panel and multiply it with oneDNN's GEMM. The gradient
// of x does the same with the roles of n and k exchanged. llm_int8_linear quantizes the rows of
// x as it runs and multiplies int8 by int8 in oneDNN (int32 sums), its outlier columns apart in
// floating point.
#include "skiff/ops/generated/kernels/quant.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <type_traits>
#include <vector>

#include "skiff/core/parallel.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/isa.h"
#include "skiff/ops/kernels/cpu/loops.h"
#include "skiff/ops/kernels/cpu/onednn.h"
#include "skiff/ops/kernels/quant_layout.h"

namespace skiff::ops {

namespace {

using cpu::load;
using cpu::store;

// The arithmetic type: double for float64 tensors, float otherwise.
template <typename T>
using acc_t = std::conditional_t<std::is_same_v<T, double>, double, float>;

constexpr int64_t kDirectRows = 8;  // batches up to this many rows never build a float panel
constexpr int64_t kBlock = 128;     // quantized rows converted per GEMM panel

template <typename T, typename A>
std::vector<A> values_as(const DenseTensor& t) {
  const DenseTensor c = t.contiguous();
  const T* p = c.data<T>();
  std::vector<A> v(c.numel());
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<A>(load(p[i]));
  return v;
}

// A floating tensor of any float dtype as A values.
template <typename A>
std::vector<A> float_values(const DenseTensor& t) {
  std::vector<A> v;
  visit_dtype(t.dtype(), [&](auto tag) {
    using S = decltype(tag);
    if constexpr (std::is_floating_point_v<S> || std::is_same_v<S, float16> ||
                  std::is_same_v<S, bfloat16>) {
      v = values_as<S, A>(t);
    }
  });
  return v;
}

// Values [k0, k1) of quantized row j, dequantized into dst[0, k1 - k0). scales is [groups, n].
template <typename A>
void dequantize_row(const int8_t* row, const A* scales, int64_t n, int64_t j,
                    const quant::Format& f, int64_t k0, int64_t k1, A* dst) {
  if (f.group < 0) {
    const A s = scales[j];
    if (f.bits == 8) {
      for (int64_t i = k0; i < k1; ++i) dst[i - k0] = static_cast<A>(row[i]) * s;
    } else {
      for (int64_t i = k0; i < k1; ++i)
        dst[i - k0] = static_cast<A>(quant::value_at(row, i, 4)) * s;
    }
    return;
  }
  for (int64_t i = k0; i < k1; ++i) {
    dst[i - k0] = static_cast<A>(quant::value_at(row, i, f.bits)) * scales[(i / f.group) * n + j];
  }
}

struct Sizes {
  int64_t m, k, n;
};

// sum x[i] * q[i] over values [k0, k1) of an int8 row (unscaled), in independent lanes.
template <typename A>
A row_dot8(const A* x, const int8_t* row, int64_t k0, int64_t k1) {
  constexpr int kLanes = 16;
  A acc[kLanes] = {};
  int64_t i = k0;
  for (; i + kLanes <= k1; i += kLanes) {
    for (int l = 0; l < kLanes; ++l) acc[l] += x[i + l] * static_cast<A>(row[i + l]);
  }
  A sum = 0;
  for (int l = 0; l < kLanes; ++l) sum += acc[l];
  for (; i < k1; ++i) sum += x[i] * static_cast<A>(row[i]);
  return sum;
}

// The same for an int4 row; k0 is even (groups are 64 or 128 values).
template <typename A>
A row_dot4(const A* x, const int8_t* row, int64_t k0, int64_t k1) {
  constexpr int kLanes = 16;
  A lo[kLanes] = {}, hi[kLanes] = {};
  const int64_t b0 = k0 / 2, b1 = k1 / 2;  // whole bytes
  int64_t b = b0;
  for (; b + kLanes <= b1; b += kLanes) {
    for (int l = 0; l < kLanes; ++l) {
      const int8_t v = row[b + l];
      lo[l] += x[2 * (b + l)] * static_cast<A>(static_cast<int8_t>(v << 4) >> 4);
      hi[l] += x[2 * (b + l) + 1] * static_cast<A>(v >> 4);
    }
  }
  A sum = 0;
  for (int l = 0; l < kLanes; ++l) sum += lo[l] + hi[l];
  for (; b < b1; ++b) {
    const int8_t v = row[b];
    sum += x[2 * b] * static_cast<A>(static_cast<int8_t>(v << 4) >> 4) +
           x[2 * b + 1] * static_cast<A>(v >> 4);
  }
  if (k1 % 2) sum += x[k1 - 1] * static_cast<A>(quant::value_at(row, k1 - 1, 4));
  return sum;
}

// x [k] . dequantized row j: unscaled sums per channel or per group, times their scales.
template <typename A>
A row_dot(const A* x, const int8_t* row, const A* scales, int64_t n, int64_t j,
          const quant::Format& f, int64_t k) {
  auto part = [&](int64_t k0, int64_t k1) {
    return f.bits == 8 ? row_dot8(x, row, k0, k1) : row_dot4(x, row, k0, k1);
  };
  if (f.group < 0) return part(0, k) * scales[j];
  A sum = 0;
  for (int64_t g0 = 0; g0 < k; g0 += f.group) {
    sum += part(g0, std::min(k, g0 + f.group)) * scales[(g0 / f.group) * n + j];
  }
  return sum;
}

// out[m, n] = x[m, k] @ deq(w)^T (+ bias) in A, written through `put(m, j, value)`: each
// quantized row is read once for all m rows of x, compiled for the best ISA.
template <typename A, typename Put>
void linear_direct(const std::vector<A>& xf, const int8_t* w, int64_t row_bytes,
                   const std::vector<A>& scales, const std::vector<A>& bias, const quant::Format& f,
                   Sizes s, const Put& put) {
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(s.m * s.k, 1));
  parallel_for(0, s.n, grain, [&](int64_t j0, int64_t j1) {
    cpu::run_best_isa([&] {
      for (int64_t j = j0; j < j1; ++j) {
        const A b = bias.empty() ? A(0) : bias[j];
        const int8_t* row = w + j * row_bytes;
        for (int64_t r = 0; r < s.m; ++r) {
          put(r, j, row_dot(xf.data() + r * s.k, row, scales.data(), s.n, j, f, s.k) + b);
        }
      }
    });
  });
}

// Converts rows [j0, j1) of the weight into panel [j1 - j0, k].
template <typename A>
void dequantize_panel(const int8_t* w, int64_t row_bytes, const std::vector<A>& scales,
                      const quant::Format& f, Sizes s, int64_t j0, int64_t j1, A* panel) {
  const int64_t grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(s.k, 1));
  parallel_for(j0, j1, grain, [&](int64_t b, int64_t e) {
    for (int64_t j = b; j < e; ++j) {
      dequantize_row(w + j * row_bytes, scales.data(), s.n, j, f, 0, s.k, panel + (j - j0) * s.k);
    }
  });
}

// The GEMM path of out[m, n] (float only); false when oneDNN cannot run here.
template <typename Put>
bool linear_gemm(const std::vector<float>& xf, const int8_t* w, int64_t row_bytes,
                 const std::vector<float>& scales, const std::vector<float>& bias,
                 const quant::Format& f, Sizes s, const Put& put) {
  std::vector<float> panel(kBlock * s.k), c(s.m * kBlock);
  for (int64_t j0 = 0; j0 < s.n; j0 += kBlock) {
    const int64_t j1 = std::min(s.n, j0 + kBlock), nb = j1 - j0;
    dequantize_panel(w, row_bytes, scales, f, s, j0, j1, panel.data());
    // c [m, nb] = x [m, k] @ panel^T: the panel read as [k, nb] with row stride 1.
    if (!cpu::onednn::gemm(DType::kFloat32, 1, s.m, nb, s.k, {xf.data(), 0, s.k, 1},
                           {panel.data(), 0, 1, s.k}, c.data(), 1.0f, 0.0f)) {
      return false;
    }
    parallel_for(0, s.m, std::max<int64_t>(1, kParallelGrain / nb), [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        for (int64_t j = j0; j < j1; ++j) {
          put(r, j, c[r * nb + (j - j0)] + (bias.empty() ? 0.0f : bias[j]));
        }
      }
    });
  }
  return true;
}

}  // namespace

template <typename T>
void weight_quantize_cpu(const KernelContext& ctx, const WeightQuantizeArgs& a) {
  using A = acc_t<T>;
  const quant::Format f = quant::format_of_algo(ctx.op, a.algo, a.group_size);
  const DenseTensor x = a.x.contiguous();
  const int64_t k = x.dim(0), n = x.dim(1);
  const int64_t groups = f.scale_rows(k), span = f.group < 0 ? std::max<int64_t>(k, 1) : f.group;
  const int64_t row_bytes = f.row_bytes(k);
  const T* px = x.data<T>();
  // Pass 1: max |w| per (group, column), columns split across threads; non-finite values are
  // flagged per column and reported after the parallel part.
  std::vector<A> amax(groups * n, A(0));
  std::vector<char> bad(n, 0);
  const int64_t col_grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(k, 1));
  parallel_for(0, n, col_grain, [&](int64_t j0, int64_t j1) {
    for (int64_t i = 0; i < k; ++i) {
      A* m = amax.data() + (i / span) * n;
      for (int64_t j = j0; j < j1; ++j) {
        const A v = static_cast<A>(load(px[i * n + j]));
        if (!std::isfinite(v)) bad[j] = 1;
        m[j] = std::max(m[j], std::abs(v));
      }
    }
  });
  for (int64_t j = 0; j < n; ++j) {
    SKIFF_ENFORCE(!bad[j], kInvalidArgument, ctx.op, "x", "finite weights",
                  str("a NaN or infinite value in column ", j));
  }
  // Quantization divides by the scale before it is rounded to its stored dtype (the nearest
  // level to each weight; the CPU and reference kernels then agree on every input).
  std::vector<A> sc(groups * n);
  for (size_t i = 0; i < sc.size(); ++i) sc[i] = amax[i] / static_cast<A>(f.bound());
  auto write_scales = [&](auto* ps) {
    using S = std::remove_pointer_t<decltype(ps)>;
    for (size_t i = 0; i < sc.size(); ++i) ps[i] = store<S>(sc[i]);
  };
  if (f.float32_scale) {
    write_scales(a.scale->template data<float>());
  } else {
    write_scales(a.scale->template data<T>());
  }
  // Pass 2: rows of out (one per column of x), columns split across threads.
  int8_t* po = a.out->data<int8_t>();
  parallel_for(0, n, col_grain, [&](int64_t j0, int64_t j1) {
    if (f.bits == 4) std::memset(po + j0 * row_bytes, 0, (j1 - j0) * row_bytes);
    for (int64_t i = 0; i < k; ++i) {
      const A* row_scale = sc.data() + (i / span) * n;
      for (int64_t j = j0; j < j1; ++j) {
        const int q =
            quant::quantize_value(static_cast<A>(load(px[i * n + j])), row_scale[j], f.bound());
        quant::set_value(po + j * row_bytes, i, q, f.bits);
      }
    }
  });
}
SKIFF_INSTANTIATE_KERNEL(weight_quantize, cpu)

template <typename T>
void weight_dequantize_cpu(const KernelContext& ctx, const WeightDequantizeArgs& a) {
  using A = acc_t<T>;
  const quant::Format f = quant::format_of_algo(ctx.op, a.algo, a.group_size);
  const DenseTensor w = a.x.contiguous();
  const int64_t n = w.dim(0), row_bytes = w.dim(1), k = f.row_values(row_bytes);
  const std::vector<A> scales = values_as<T, A>(a.scale);
  const int8_t* pw = w.data<int8_t>();
  T* po = a.out->data<T>();
  parallel_for(0, n, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(k, 1)),
               [&](int64_t j0, int64_t j1) {
                 std::vector<A> row(k);
                 for (int64_t j = j0; j < j1; ++j) {
                   dequantize_row(pw + j * row_bytes, scales.data(), n, j, f, 0, k, row.data());
                   for (int64_t i = 0; i < k; ++i) po[i * n + j] = store<T>(row[i]);
                 }
               });
}
SKIFF_INSTANTIATE_KERNEL(weight_dequantize, cpu)

template <typename T>
void weight_only_linear_cpu(const KernelContext& ctx, const WeightOnlyLinearArgs& a) {
  using A = acc_t<T>;
  const quant::Format f = quant::format_of_weight_dtype(ctx.op, a.weight_dtype, a.group_size);
  const DenseTensor w = a.weight.contiguous();
  const int64_t k = a.x.dim(a.x.rank() - 1), n = w.dim(0);
  const Sizes s{k == 0 ? 0 : a.x.numel() / k, k, n};
  if (a.out->numel() == 0) return;
  if (k == 0) {
    // An empty contraction: out is the bias (or zeros).
    const std::vector<A> bias = a.bias ? values_as<T, A>(*a.bias) : std::vector<A>{};
    T* po = a.out->data<T>();
    const int64_t m = a.out->numel() / n;
    for (int64_t r = 0; r < m; ++r) {
      for (int64_t j = 0; j < n; ++j) po[r * n + j] = store<T>(bias.empty() ? A(0) : bias[j]);
    }
    return;
  }
  const std::vector<A> xf = values_as<T, A>(a.x);
  const std::vector<A> scales = float_values<A>(a.weight_scale);
  const std::vector<A> bias = a.bias ? values_as<T, A>(*a.bias) : std::vector<A>{};
  T* po = a.out->data<T>();
  auto put = [&](int64_t r, int64_t j, A v) { po[r * n + j] = store<T>(v); };
  if constexpr (std::is_same_v<A, float>) {
    if (s.m > kDirectRows && linear_gemm(xf, w.data<int8_t>(), w.dim(1), scales, bias, f, s, put)) {
      return;
    }
  }
  linear_direct(xf, w.data<int8_t>(), w.dim(1), scales, bias, f, s, put);
}
SKIFF_INSTANTIATE_KERNEL(weight_only_linear, cpu)

template <typename T>
void llm_int8_linear_cpu(const KernelContext&, const LlmInt8LinearArgs& a) {
  using A = acc_t<T>;
  const DenseTensor w = a.weight.contiguous();
  const int64_t k = a.x.dim(a.x.rank() - 1), n = w.dim(0);
  if (a.out->numel() == 0) return;
  const int64_t m = a.out->numel() / n;
  const std::vector<A> bias = a.bias ? values_as<T, A>(*a.bias) : std::vector<A>{};
  const std::vector<A> scales = float_values<A>(a.weight_scale);
  const int8_t* pw = w.data<int8_t>();
  T* po = a.out->data<T>();
  // x as A values: read in place when it already is (float32, contiguous).
  const DenseTensor xc = a.x.contiguous();
  std::vector<A> xcopy;
  const A* xf = nullptr;
  if constexpr (std::is_same_v<T, A>) {
    xf = xc.data<T>();
  } else {
    xcopy = values_as<T, A>(xc);
    xf = xcopy.data();
  }
  const int64_t row_grain = std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(k, 1));
  // Outlier columns: any row's value past the threshold (flags per block of rows, then or-ed).
  std::vector<char> outlier(k, 0);
  {
    std::mutex mu;
    parallel_for(0, m, row_grain, [&](int64_t r0, int64_t r1) {
      std::vector<char> local(k, 0);
      for (int64_t r = r0; r < r1; ++r) {
        const A* row = xf + r * k;
        for (int64_t i = 0; i < k; ++i)
          local[i] |= quant::llm_int8_outlier(static_cast<float>(row[i]), a.threshold);
      }
      std::lock_guard<std::mutex> lock(mu);
      for (int64_t i = 0; i < k; ++i) outlier[i] |= local[i];
    });
  }
  std::vector<int64_t> cols;
  for (int64_t i = 0; i < k; ++i) {
    if (outlier[i]) cols.push_back(i);
  }
  const int64_t p = static_cast<int64_t>(cols.size());
  // The rows quantized (outlier columns 0) with their steps. Scratch from the caching
  // allocator (run after run the same sizes).
  DenseTensor xq_t = DenseTensor::empty(Dims{std::max<int64_t>(m * k, 1)}, DType::kInt8);
  DenseTensor sums_t = DenseTensor::empty(Dims{m * n}, DType::kInt32);
  int8_t* xq = xq_t.data<int8_t>();
  int32_t* sums = sums_t.data<int32_t>();
  std::vector<float> step(m);
  parallel_for(0, m, row_grain, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const A* row = xf + r * k;
      float range = 0.0f;
      for (int64_t i = 0; i < k; ++i) {
        const float v = outlier[i] ? 0.0f : std::fabs(static_cast<float>(row[i]));
        range = std::max(range, v);
      }
      const float inv = quant::llm_int8_inverse_step(range);
      step[r] = quant::llm_int8_step(range);
      int8_t* q = xq + r * k;
      for (int64_t i = 0; i < k; ++i) {
        q[i] = outlier[i] ? int8_t{0} : quant::llm_int8_level(static_cast<float>(row[i]), inv);
      }
    }
  });
  // sums [m, n] = xq @ w^T: decode-size batches as int8 dot products over the weight rows
  // (oneDNN's call costs more than the work there), larger ones through oneDNN.
  if (k == 0 || p == k) {
    std::fill(sums, sums + m * n, 0);
  } else if (m <= kDirectRows || !cpu::onednn::gemm_s8(m, n, k, xq, pw, sums)) {
    parallel_for(0, n, std::max<int64_t>(1, kParallelGrain / (k * m)), [&](int64_t j0, int64_t j1) {
      for (int64_t j = j0; j < j1; ++j) {
        const int8_t* wr = pw + j * k;
        for (int64_t r = 0; r < m; ++r) {
          const int8_t* xr = xq + r * k;
          int32_t acc = 0;
          for (int64_t i = 0; i < k; ++i) acc += int32_t{xr[i]} * int32_t{wr[i]};
          sums[r * n + j] = acc;
        }
      }
    });
  }
  // The outlier columns in floating point, fp [m, n] = x[:, cols] @ (scale * w[:, cols])^T:
  // a few are added in the final loop, many go through a GEMM first.
  constexpr int64_t kInlineOutliers = 16;
  std::vector<A> xo(m * p), wo(n * p), fp;
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t c = 0; c < p; ++c) xo[r * p + c] = xf[r * k + cols[c]];
  }
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t c = 0; c < p; ++c) wo[j * p + c] = pw[j * k + cols[c]] * scales[j];
  }
  if (p > kInlineOutliers) {
    fp.assign(m * n, A(0));
    bool done = false;
    if constexpr (std::is_same_v<A, float>) {
      done = cpu::onednn::gemm(DType::kFloat32, 1, m, n, p, {xo.data(), 0, p, 1},
                               {wo.data(), 0, 1, p}, fp.data(), 1.0f, 0.0f);
    }
    if (!done) {
      for (int64_t r = 0; r < m; ++r) {
        for (int64_t j = 0; j < n; ++j) {
          A s = 0;
          for (int64_t c = 0; c < p; ++c) s += xo[r * p + c] * wo[j * p + c];
          fp[r * n + j] = s;
        }
      }
    }
  }
  parallel_for(0, m, std::max<int64_t>(1, kParallelGrain / n), [&](int64_t r0, int64_t r1) {
    std::vector<A> row_acc(n);
    for (int64_t r = r0; r < r1; ++r) {
      const A st = static_cast<A>(step[r]);
      const int32_t* sr = sums + r * n;
      const A* fr = fp.empty() ? nullptr : fp.data() + r * n;
      const A* xr = xo.data() + r * p;
      A* v = row_acc.data();
      for (int64_t j = 0; j < n; ++j) v[j] = static_cast<A>(sr[j]) * st * scales[j];
      if (fr) {
        for (int64_t j = 0; j < n; ++j) v[j] += fr[j];
      } else if (p > 0) {
        for (int64_t j = 0; j < n; ++j) {
          for (int64_t c = 0; c < p; ++c) v[j] += xr[c] * wo[j * p + c];
        }
      }
      if (!bias.empty()) {
        for (int64_t j = 0; j < n; ++j) v[j] += bias[j];
      }
      T* out = po + r * n;
      for (int64_t j = 0; j < n; ++j) out[j] = store<T>(v[j]);
    }
  });
}
SKIFF_INSTANTIATE_KERNEL(llm_int8_linear, cpu)

template <typename T>
void weight_only_linear_grad_cpu(const KernelContext& ctx, const WeightOnlyLinearGradArgs& a) {
  using A = acc_t<T>;
  const quant::Format f = quant::format_of_weight_dtype(ctx.op, a.weight_dtype, a.group_size);
  const DenseTensor w = a.weight.contiguous();
  const int64_t k = a.x.dim(a.x.rank() - 1), n = w.dim(0);
  if (a.x_grad->numel() == 0) return;
  const int64_t m = a.x_grad->numel() / k;
  const Sizes s{m, k, n};
  const std::vector<A> g = values_as<T, A>(a.out_grad);
  const std::vector<A> scales = float_values<A>(a.weight_scale);
  const int8_t* pw = w.data<int8_t>();
  const int64_t row_bytes = w.dim(1);
  T* pgx = a.x_grad->data<T>();
  if constexpr (std::is_same_v<A, float>) {
    if (m > kDirectRows) {
      // acc [m, k] += g[:, j0:j1] @ panel [nb, k], panel by panel.
      std::vector<float> panel(kBlock * k), acc(m * k, 0.0f);
      bool ok = true;
      for (int64_t j0 = 0; ok && j0 < n; j0 += kBlock) {
        const int64_t j1 = std::min(n, j0 + kBlock), nb = j1 - j0;
        dequantize_panel(pw, row_bytes, scales, f, s, j0, j1, panel.data());
        ok = cpu::onednn::gemm(DType::kFloat32, 1, m, k, nb, {g.data() + j0, 0, n, 1},
                               {panel.data(), 0, k, 1}, acc.data(), 1.0f, j0 == 0 ? 0.0f : 1.0f);
      }
      if (ok) {
        for (int64_t i = 0; i < m * k; ++i) pgx[i] = store<T>(acc[i]);
        return;
      }
    }
  }
  // Direct: columns of x_grad split across threads; each task walks every quantized row once.
  constexpr int64_t kChunk = 256;
  const int64_t chunks = (k + kChunk - 1) / kChunk;
  parallel_for(0, chunks,
               std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n * m * kChunk, 1)),
               [&](int64_t c0, int64_t c1) {
                 std::vector<A> wd(kChunk), acc(m * kChunk);
                 for (int64_t c = c0; c < c1; ++c) {
                   const int64_t k0 = c * kChunk, k1 = std::min(k, k0 + kChunk), w_ = k1 - k0;
                   std::fill(acc.begin(), acc.end(), A(0));
                   for (int64_t j = 0; j < n; ++j) {
                     dequantize_row(pw + j * row_bytes, scales.data(), n, j, f, k0, k1, wd.data());
                     for (int64_t r = 0; r < m; ++r) {
                       const A gj = g[r * n + j];
                       A* row = acc.data() + r * kChunk;
                       for (int64_t i = 0; i < w_; ++i) row[i] += gj * wd[i];
                     }
                   }
                   for (int64_t r = 0; r < m; ++r) {
                     for (int64_t i = 0; i < w_; ++i)
                       pgx[r * k + k0 + i] = store<T>(acc[r * kChunk + i]);
                   }
                 }
               });
}
SKIFF_INSTANTIATE_KERNEL(weight_only_linear_grad, cpu)

}  // namespace skiff::ops
