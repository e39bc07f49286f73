// Reference kernels of the nn ops: plain float64 loops over multi-indices, any input strides.
#include "skiff/ops/generated/kernels/nn.h"

#include <cmath>
#include <limits>
#include <vector>

#include "skiff/core/generator.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/meta/nn_meta.h"
#include "skiff/ops/kernels/reference/ref_loops.h"

namespace skiff::ops {

namespace {

using reference::for_each_index;
using reference::offset_of;

// Calls f(line) for every 1-D line of `dims` along `axis`, where line(t, j) is the storage
// offset of element j of the line in tensor t (t has `dims`). Rank 0 is one line of length 1.
template <typename F>
void for_each_line(const Dims& dims, int axis, const F& f) {
  Dims outer = dims;
  if (dims.size() > 0) outer[axis] = 1;
  for_each_index(outer, [&](const int64_t* idx0) {
    std::vector<int64_t> idx(idx0, idx0 + dims.size());
    auto line = [&, idx](const DenseTensor& t, int64_t j) mutable {
      if (t.rank() > 0) idx[axis] = j;
      return offset_of(t, idx.data());
    };
    f(line);
  });
}

double value_at(const DenseTensor& t, int64_t offset) {
  return visit_dtype(t.dtype(), [&](auto tag) {
    using P = decltype(tag);
    return static_cast<double>(
        static_cast<compute_t<P>>(static_cast<const P*>(t.raw_data())[offset]));
  });
}

int64_t index_at(const DenseTensor& t, int64_t offset) {
  return t.dtype() == DType::kInt32 ? static_cast<const int32_t*>(t.raw_data())[offset]
                                    : static_cast<const int64_t*>(t.raw_data())[offset];
}

template <typename T>
void set(DenseTensor& t, int64_t offset, double v) {
  static_cast<T*>(t.raw_data())[offset] = static_cast<T>(v);
}

template <typename T, bool kLog>
void softmax_ref(const char* op, const DenseTensor& x, DenseTensor& out, int64_t axis_attr) {
  const int axis = normalize_axis(axis_attr, x.rank(), op);
  const int64_t n = x.rank() > 0 ? x.dim(axis) : 1;
  for_each_line(x.dims(), axis, [&](auto line) {
    double m = -std::numeric_limits<double>::infinity();
    for (int64_t j = 0; j < n; ++j) m = std::max(m, value_at(x, line(x, j)));
    double s = 0;
    for (int64_t j = 0; j < n; ++j) s += std::exp(value_at(x, line(x, j)) - m);
    for (int64_t j = 0; j < n; ++j) {
      const double v = value_at(x, line(x, j)) - m;
      set<T>(out, line(out, j), kLog ? v - std::log(s) : std::exp(v) / s);
    }
  });
}

// Rows [left, right] of a normalization with right = prod(dims[begin:]); row r, column c is
// element r * right + c in row-major order.
int64_t numel_from(const Dims& dims, int begin) {
  int64_t right = 1;
  for (int i = begin; i < dims.size(); ++i) right *= dims[i];
  return right;
}

std::vector<double> row_major_values(const DenseTensor& t) {
  std::vector<double> v;
  v.reserve(t.numel());
  for_each_index(t.dims(),
                 [&](const int64_t* idx) { v.push_back(value_at(t, offset_of(t, idx))); });
  return v;
}

}  // namespace

template <typename T>
void softmax_reference(const KernelContext& ctx, const SoftmaxArgs& a) {
  softmax_ref<T, false>(ctx.op, a.x, *a.out, a.axis);
}
SKIFF_INSTANTIATE_KERNEL(softmax, reference)

template <typename T>
void log_softmax_reference(const KernelContext& ctx, const LogSoftmaxArgs& a) {
  softmax_ref<T, true>(ctx.op, a.x, *a.out, a.axis);
}
SKIFF_INSTANTIATE_KERNEL(log_softmax, reference)

template <typename T>
void layer_norm_reference(const KernelContext& ctx, const LayerNormArgs& a) {
  const int begin = normalize_axis(a.begin_norm_axis, a.x.rank(), ctx.op, "begin_norm_axis");
  const int64_t right = numel_from(a.x.dims(), begin);
  const int64_t left = a.mean->numel();
  const std::vector<double> x = row_major_values(a.x);
  const std::vector<double> scale = a.scale ? row_major_values(*a.scale) : std::vector<double>();
  const std::vector<double> bias = a.bias ? row_major_values(*a.bias) : std::vector<double>();
  for (int64_t r = 0; r < left; ++r) {
    double mean = 0, var = 0;
    for (int64_t c = 0; c < right; ++c) mean += x[r * right + c];
    mean /= right;
    for (int64_t c = 0; c < right; ++c)
      var += (x[r * right + c] - mean) * (x[r * right + c] - mean);
    var /= right;
    for (int64_t c = 0; c < right; ++c) {
      double y = (x[r * right + c] - mean) / std::sqrt(var + a.epsilon);
      if (a.scale) y *= scale[c];
      if (a.bias) y += bias[c];
      set<T>(*a.out, r * right + c, y);
    }
    set<T>(*a.mean, r, mean);
    set<T>(*a.variance, r, var);
  }
}
SKIFF_INSTANTIATE_KERNEL(layer_norm, reference)

template <typename T>
void rms_norm_reference(const KernelContext& ctx, const RmsNormArgs& a) {
  const int begin = normalize_axis(a.begin_norm_axis, a.x.rank(), ctx.op, "begin_norm_axis");
  const int64_t right = numel_from(a.x.dims(), begin);
  const int64_t left = a.inv_rms->numel();
  const std::vector<double> x = row_major_values(a.x);
  const std::vector<double> w = a.weight ? row_major_values(*a.weight) : std::vector<double>();
  for (int64_t r = 0; r < left; ++r) {
    double ms = 0;
    for (int64_t c = 0; c < right; ++c) ms += x[r * right + c] * x[r * right + c];
    const double inv = 1.0 / std::sqrt(ms / right + a.epsilon);
    for (int64_t c = 0; c < right; ++c) {
      set<T>(*a.out, r * right + c, x[r * right + c] * inv * (a.weight ? w[c] : 1.0));
    }
    set<T>(*a.inv_rms, r, inv);
  }
}
SKIFF_INSTANTIATE_KERNEL(rms_norm, reference)

template <typename T>
void embedding_reference(const KernelContext& ctx, const EmbeddingArgs& a) {
  const int64_t dim = a.weight.dim(1);
  int64_t i = 0;
  for_each_index(a.x.dims(), [&](const int64_t* idx) {
    const int64_t id = index_at(a.x, offset_of(a.x, idx));
    SKIFF_ENFORCE(id >= 0 && id < a.weight.dim(0), kOutOfRange, ctx.op, "x",
                  str("values in [0, ", a.weight.dim(0), ")"), id);
    for (int64_t c = 0; c < dim; ++c) {
      const int64_t w_idx[2] = {id, c};
      const double v = id == a.padding_idx ? 0.0 : value_at(a.weight, offset_of(a.weight, w_idx));
      set<T>(*a.out, i * dim + c, v);
    }
    ++i;
  });
}
SKIFF_INSTANTIATE_KERNEL(embedding, reference)

template <typename T>
void one_hot_reference(const KernelContext& ctx, const OneHotArgs& a) {
  int64_t i = 0;
  for_each_index(a.x.dims(), [&](const int64_t* idx) {
    const int64_t id = index_at(a.x, offset_of(a.x, idx));
    SKIFF_ENFORCE(id >= 0 && id < a.num_classes, kOutOfRange, ctx.op, "x",
                  str("values in [0, ", a.num_classes, ")"), id);
    for (int64_t c = 0; c < a.num_classes; ++c) {
      set<float>(*a.out, i * a.num_classes + c, c == id ? 1.0 : 0.0);
    }
    ++i;
  });
}
SKIFF_INSTANTIATE_KERNEL(one_hot, reference)

template <typename T>
void cross_entropy_with_softmax_reference(const KernelContext& ctx,
                                          const CrossEntropyWithSoftmaxArgs& a) {
  const DenseTensor& x = a.logits;
  const int axis = normalize_axis(a.axis, x.rank(), ctx.op);
  const int64_t n = x.dim(axis);
  for_each_line(x.dims(), axis, [&](auto line) {
    std::vector<double> log_p(n);
    double m = -std::numeric_limits<double>::infinity(), s = 0;
    for (int64_t j = 0; j < n; ++j) m = std::max(m, value_at(x, line(x, j)));
    for (int64_t j = 0; j < n; ++j) s += std::exp(value_at(x, line(x, j)) - m);
    for (int64_t j = 0; j < n; ++j) {
      const double v = value_at(x, line(x, j));
      log_p[j] = a.use_softmax ? v - m - std::log(s) : std::log(v);
      set<T>(*a.softmax, line(*a.softmax, j), a.use_softmax ? std::exp(log_p[j]) : v);
    }
    double loss = 0;
    if (a.soft_label) {
      for (int64_t j = 0; j < n; ++j) loss -= value_at(a.label, line(a.label, j)) * log_p[j];
    } else {
      const int64_t label = index_at(a.label, line(a.label, 0));
      SKIFF_ENFORCE((label >= 0 && label < n) || label == a.ignore_index, kOutOfRange, ctx.op,
                    "label", str("values in [0, ", n, ")"), label);
      if (label != a.ignore_index) loss = -log_p[label];
    }
    set<T>(*a.loss, line(*a.loss, 0), loss);
  });
}
SKIFF_INSTANTIATE_KERNEL(cross_entropy_with_softmax, reference)

template <typename T>
void dropout_reference(const KernelContext& ctx, const DropoutArgs& a) {
  const int64_t n = a.x.numel();
  const bool upscale = a.mode == "upscale_in_train";
  const double p = a.p;
  const std::vector<double> x = row_major_values(a.x);
  if (n > 0 && !a.is_test) {
    const PhiloxState st = a.seed != 0 ? PhiloxState{static_cast<uint64_t>(a.seed), 0}
                                       : default_generator(ctx.place).reserve((n + 3) / 4);
    for (int64_t i = 0; i < n; ++i) {
      const uint32_t word = philox4x32(st.offset + i / 4, 0, st.seed)[i % 4];
      const double u = static_cast<double>(word >> 8) / 16777216.0;
      const bool keep = u >= p;
      set<uint8_t>(*a.mask, i, keep ? 1 : 0);
      set<T>(*a.out, i, !keep ? 0.0 : upscale ? x[i] / (1 - p) : x[i]);
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    set<uint8_t>(*a.mask, i, 1);
    set<T>(*a.out, i, upscale ? x[i] : x[i] * (1 - p));
  }
}
SKIFF_INSTANTIATE_KERNEL(dropout, reference)

namespace {
// batch_norm's x in row-major order as [outer, C, inner] (channel axis per data_format).
struct BnSplit {
  int64_t outer = 1, c = 1, inner = 1;
  int64_t at(int64_t n, int64_t c_, int64_t i) const { return (n * c + c_) * inner + i; }
};

BnSplit bn_split(const char* op, const Dims& dims, const std::string& format) {
  const int axis = meta::batch_norm_channel_axis(op, format, dims.size());
  BnSplit s;
  for (int i = 0; i < axis; ++i) s.outer *= dims[i];
  s.c = dims[axis];
  for (int i = axis + 1; i < dims.size(); ++i) s.inner *= dims[i];
  return s;
}

void set_any(DenseTensor& t, int64_t offset, double v) {
  visit_dtype(t.dtype(), [&](auto tag) {
    using P = decltype(tag);
    static_cast<P*>(t.raw_data())[offset] = static_cast<P>(static_cast<compute_t<P>>(v));
  });
}
}  // namespace

template <typename T>
void batch_norm_reference(const KernelContext& ctx, const BatchNormArgs& a) {
  const BnSplit s = bn_split(ctx.op, a.x.dims(), a.data_format);
  const std::vector<double> x = row_major_values(a.x);
  const std::vector<double> rm = row_major_values(a.mean), rv = row_major_values(a.variance);
  const std::vector<double> scale = a.scale ? row_major_values(*a.scale) : std::vector<double>();
  const std::vector<double> bias = a.bias ? row_major_values(*a.bias) : std::vector<double>();
  const bool batch = !((a.is_test && !a.trainable_statistics) || a.use_global_stats);
  const int64_t m = s.outer * s.inner;
  for (int64_t c = 0; c < s.c; ++c) {
    double mean = rm[c], var = rv[c], mean_out = rm[c], var_out = rv[c];
    if (batch && m > 0) {
      double sum = 0, sq = 0;
      for (int64_t n = 0; n < s.outer; ++n)
        for (int64_t i = 0; i < s.inner; ++i) sum += x[s.at(n, c, i)];
      mean = sum / m;
      for (int64_t n = 0; n < s.outer; ++n)
        for (int64_t i = 0; i < s.inner; ++i) sq += (x[s.at(n, c, i)] - mean) * (x[s.at(n, c, i)] - mean);
      var = sq / m;
      mean_out = a.momentum * rm[c] + (1 - a.momentum) * mean;
      var_out = a.momentum * rv[c] + (1 - a.momentum) * sq / std::max<int64_t>(m - 1, 1);
    }
    const double inv_std = 1 / std::sqrt(var + a.epsilon);
    for (int64_t n = 0; n < s.outer; ++n) {
      for (int64_t i = 0; i < s.inner; ++i) {
        double y = (x[s.at(n, c, i)] - mean) * inv_std;
        if (a.scale) y *= scale[c];
        if (a.bias) y += bias[c];
        set_any(*a.out, s.at(n, c, i), y);
      }
    }
    set_any(*a.mean_out, c, mean_out);
    set_any(*a.variance_out, c, var_out);
    set_any(*a.saved_mean, c, mean);
    set_any(*a.saved_variance, c, inv_std);
  }
}
SKIFF_INSTANTIATE_KERNEL(batch_norm, reference)

template <typename T>
void batch_norm_grad_reference(const KernelContext& ctx, const BatchNormGradArgs& a) {
  const BnSplit s = bn_split(ctx.op, a.x.dims(), a.data_format);
  const std::vector<double> x = row_major_values(a.x), dy = row_major_values(a.out_grad);
  const std::vector<double> mean = row_major_values(a.saved_mean);
  const std::vector<double> inv_std = row_major_values(a.saved_variance);
  const std::vector<double> scale = a.scale ? row_major_values(*a.scale) : std::vector<double>();
  const int64_t m = s.outer * s.inner;
  for (int64_t c = 0; c < s.c; ++c) {
    const double g = a.scale ? scale[c] : 1.0;
    double sum_dy = 0, sum_dy_xhat = 0;
    for (int64_t n = 0; n < s.outer; ++n) {
      for (int64_t i = 0; i < s.inner; ++i) {
        const int64_t k = s.at(n, c, i);
        sum_dy += dy[k];
        sum_dy_xhat += dy[k] * (x[k] - mean[c]) * inv_std[c];
      }
    }
    for (int64_t n = 0; n < s.outer; ++n) {
      for (int64_t i = 0; i < s.inner; ++i) {
        const int64_t k = s.at(n, c, i);
        double dx = dy[k];
        if (!a.use_global_stats) {
          dx -= sum_dy / m + (x[k] - mean[c]) * inv_std[c] * sum_dy_xhat / m;
        }
        set_any(*a.x_grad, k, g * inv_std[c] * dx);
      }
    }
    set_any(*a.scale_grad, c, sum_dy_xhat);
    set_any(*a.bias_grad, c, sum_dy);
  }
}
SKIFF_INSTANTIATE_KERNEL(batch_norm_grad, reference)

}  // namespace skiff::ops
