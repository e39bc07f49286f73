// CPU kernels of embedding, one_hot, cross_entropy_with_softmax and dropout.
//
// Index inputs (ids, labels) are validated in one serial pass before any parallel work, so
// errors are thrown on the calling thread. Dropout draws Philox words: element i uses word i % 4
// of counter offset + i / 4, so the mask is the same for every thread count.
#include <cmath>
#include <cstring>
#include <vector>

#include "skiff/core/generator.h"
#include "skiff/ops/generated/kernels/nn.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/loops.h"
#include "skiff/ops/kernels/cpu/nn_math.h"

namespace skiff::ops {

namespace {

using cpu::exp_c;
using cpu::load;
using cpu::store;

// Ids of an int32/int64 tensor as int64 values, each checked to lie in [0, limit) (or equal
// `allowed`, e.g. ignore_index).
std::vector<int64_t> checked_ids(const char* op, const char* arg, const DenseTensor& t,
                                 int64_t limit, std::optional<int64_t> allowed = std::nullopt) {
  const DenseTensor c = t.contiguous();
  std::vector<int64_t> ids(c.numel());
  if (c.dtype() == DType::kInt32) {
    const int32_t* p = c.data<int32_t>();
    for (size_t i = 0; i < ids.size(); ++i) ids[i] = p[i];
  } else {
    const int64_t* p = c.data<int64_t>();
    for (size_t i = 0; i < ids.size(); ++i) ids[i] = p[i];
  }
  for (int64_t v : ids) {
    SKIFF_ENFORCE((v >= 0 && v < limit) || (allowed && v == *allowed), kOutOfRange, op, arg,
                  str("values in [0, ", limit, ")"), v);
  }
  return ids;
}

}  // namespace

template <typename T>
void embedding_cpu(const KernelContext& ctx, const EmbeddingArgs& a) {
  const DenseTensor w = a.weight.contiguous();
  const int64_t rows = w.dim(0), dim = w.dim(1);
  const std::vector<int64_t> ids = checked_ids(ctx.op, "x", a.x, rows);
  const T* pw = w.data<T>();
  T* po = a.out->data<T>();
  const int64_t n = static_cast<int64_t>(ids.size());
  parallel_for(0, n, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(dim, 1)),
               [&](int64_t b, int64_t e) {
                 for (int64_t i = b; i < e; ++i) {
                   T* dst = po + i * dim;
                   if (ids[i] == a.padding_idx) {
                     std::fill(dst, dst + dim, T(0.0f));
                   } else {
                     std::memcpy(dst, pw + ids[i] * dim, dim * sizeof(T));
                   }
                 }
               });
}
SKIFF_INSTANTIATE_KERNEL(embedding, cpu)

template <typename T>
void one_hot_cpu(const KernelContext& ctx, const OneHotArgs& a) {
  const std::vector<int64_t> ids = checked_ids(ctx.op, "x", a.x, a.num_classes);
  float* po = a.out->data<float>();
  std::memset(po, 0, a.out->nbytes());
  for (size_t i = 0; i < ids.size(); ++i) po[i * a.num_classes + ids[i]] = 1.0f;
}
SKIFF_INSTANTIATE_KERNEL(one_hot, cpu)

template <typename T>
void cross_entropy_with_softmax_cpu(const KernelContext& ctx,
                                    const CrossEntropyWithSoftmaxArgs& a) {
  using C = compute_t<T>;
  if (a.softmax->numel() == 0) return;
  const DenseTensor x = a.logits.contiguous();
  const int axis = normalize_axis(a.axis, x.rank(), ctx.op);
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= x.dim(i);
  for (int i = axis + 1; i < x.rank(); ++i) inner *= x.dim(i);
  const int64_t n = x.dim(axis);
  std::vector<int64_t> hard;
  DenseTensor soft;
  if (a.soft_label) {
    soft = a.label.contiguous();
  } else {
    hard = checked_ids(ctx.op, "label", a.label, n, a.ignore_index);
  }
  const T* px = x.data<T>();
  const T* pl = a.soft_label ? soft.data<T>() : nullptr;
  T* ps = a.softmax->data<T>();
  T* ploss = a.loss->data<T>();
  parallel_for(0, outer * inner, std::max<int64_t>(1, kParallelGrain / n),
               [&](int64_t b, int64_t e) {
                 cpu::run_best_isa([&] {
                   for (int64_t t = b; t < e; ++t) {
                     const int64_t o = t / inner, k = t % inner;
                     const T* r = px + o * n * inner + k;
                     T* sr = ps + o * n * inner + k;
                     // log p_j = (x_j - m) - log_s with softmax, log x_j without.
                     C m = 0, log_s = 0;
                     if (a.use_softmax) {
                       m = -std::numeric_limits<C>::infinity();
                       for (int64_t j = 0; j < n; ++j) m = std::max(m, load(r[j * inner]));
                       double s = 0;
                       for (int64_t j = 0; j < n; ++j) s += exp_c<C>(load(r[j * inner]) - m);
                       log_s = static_cast<C>(std::log(s));
                       const C inv = static_cast<C>(1.0 / s);
                       for (int64_t j = 0; j < n; ++j) {
                         sr[j * inner] = store<T>(exp_c<C>(load(r[j * inner]) - m) * inv);
                       }
                     } else {
                       for (int64_t j = 0; j < n; ++j) sr[j * inner] = r[j * inner];
                     }
                     auto log_p = [&](int64_t j) {
                       return a.use_softmax ? (load(r[j * inner]) - m) - log_s
                                            : std::log(load(r[j * inner]));
                     };
                     double loss = 0;
                     if (a.soft_label) {
                       const T* lr = pl + o * n * inner + k;
                       for (int64_t j = 0; j < n; ++j)
                         loss -= static_cast<double>(load(lr[j * inner]) * log_p(j));
                     } else if (hard[t] != a.ignore_index) {
                       loss = -static_cast<double>(log_p(hard[t]));
                     }
                     ploss[t] = store<T>(static_cast<C>(loss));
                   }
                 });
               });
}
SKIFF_INSTANTIATE_KERNEL(cross_entropy_with_softmax, cpu)

template <typename T>
void dropout_cpu(const KernelContext& ctx, const DropoutArgs& a) {
  const int64_t n = a.out->numel();
  if (n == 0) return;
  const bool upscale = a.mode == "upscale_in_train";
  uint8_t* pm = a.mask->data<uint8_t>();
  if (a.is_test) {
    using C = compute_t<T>;
    const C factor = upscale ? C(1) : static_cast<C>(1.0 - static_cast<double>(a.p));
    cpu::unary_loop<T, T>(a.x, *a.out, [factor](auto v) { return v * factor; });
    std::memset(pm, 1, n);
    return;
  }
  const PhiloxState st = a.seed != 0 ? PhiloxState{static_cast<uint64_t>(a.seed), 0}
                                     : default_generator(ctx.place).reserve((n + 3) / 4);
  const DenseTensor x = a.x.contiguous();
  const T* px = x.data<T>();
  T* po = a.out->data<T>();
  const float p = a.p;
  const double scale_d = !upscale ? 1.0 : p < 1.0f ? 1.0 / (1.0 - static_cast<double>(p)) : 0.0;
  const compute_t<T> scale = static_cast<compute_t<T>>(scale_d);
  const int64_t groups = (n + 3) / 4;
  parallel_for(0, groups, kParallelGrain / 4, [&](int64_t b, int64_t e) {
    for (int64_t g = b; g < e; ++g) {
      const auto words = philox4x32(st.offset + g, 0, st.seed);
      for (int64_t i = g * 4, w = 0; i < std::min(n, g * 4 + 4); ++i, ++w) {
        const bool keep = uint_to_unit_float(words[w]) >= p;
        pm[i] = keep;
        po[i] = store<T>(keep ? load(px[i]) * scale : compute_t<T>(0));
      }
    }
  });
}
SKIFF_INSTANTIATE_KERNEL(dropout, cpu)

}  // namespace skiff::ops
