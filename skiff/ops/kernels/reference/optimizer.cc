// Reference kernels of the fused optimizer ops: the textbook update formulas element by element
// in float64, reading and writing every tensor through its own dtype (moments may stay float32
// while parameters are widened), so they check the fused CPU loops. They read the inputs and
// write the outputs (the same buffers, or temporaries the in-place code copies back).
#include "skiff/ops/generated/kernels/optimizer.h"

#include <algorithm>
#include <cmath>

#include "skiff/ops/kernel.h"

namespace skiff::ops {
namespace {

// Storage offset of element i (row-major) of `t`.
int64_t offset_at(const DenseTensor& t, int64_t i) {
  int64_t off = 0;
  for (int d = t.rank() - 1; d >= 0; --d) {
    off += (i % t.dim(d)) * t.strides()[d];
    i /= t.dim(d);
  }
  return off;
}

double get(const DenseTensor& t, int64_t i) {
  return visit_dtype(t.dtype(), [&](auto tag) -> double {
    using T = decltype(tag);
    const T v = static_cast<const T*>(t.raw_data())[offset_at(t, i)];
    return static_cast<double>(static_cast<compute_t<T>>(v));
  });
}

void set(const DenseTensor& t, int64_t i, double v) {
  visit_dtype(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    static_cast<T*>(t.raw_data())[offset_at(t, i)] = static_cast<T>(static_cast<compute_t<T>>(v));
  });
}

}  // namespace

template <typename T>
void fused_sgd_reference(const KernelContext&, const FusedSgdArgs& a) {
  const double lr = get(a.learning_rate, 0);
  for (size_t t = 0; t < a.params.size(); ++t) {
    for (int64_t i = 0; i < a.params[t].numel(); ++i) {
      const double p = get(a.params[t], i);
      set((*a.params_out)[t], i, p - lr * (get(a.grads[t], i) + a.weight_decay * p));
    }
  }
}
SKIFF_INSTANTIATE_KERNEL(fused_sgd, reference)

template <typename T>
void fused_momentum_reference(const KernelContext&, const FusedMomentumArgs& a) {
  const double lr = get(a.learning_rate, 0);
  for (size_t t = 0; t < a.params.size(); ++t) {
    for (int64_t i = 0; i < a.params[t].numel(); ++i) {
      const double p = get(a.params[t], i);
      const double g = get(a.grads[t], i) + a.weight_decay * p;
      const double v = a.mu * get(a.velocity[t], i) + g;
      set((*a.velocity_out)[t], i, v);
      set((*a.params_out)[t], i, p - lr * (a.use_nesterov ? g + a.mu * v : v));
    }
  }
}
SKIFF_INSTANTIATE_KERNEL(fused_momentum, reference)

namespace {

template <typename Args>
void adam_reference(const Args& a, bool decoupled) {
  const double lr = get(a.learning_rate, 0), step = get(a.step, 0);
  const double b1 = a.beta1, b2 = a.beta2;
  for (size_t t = 0; t < a.params.size(); ++t) {
    for (int64_t i = 0; i < a.params[t].numel(); ++i) {
      double p = get(a.params[t], i);
      double g = get(a.grads[t], i);
      if (!decoupled) g += a.weight_decay * p;
      const double m = b1 * get(a.moment1[t], i) + (1 - b1) * g;
      double v = b2 * get(a.moment2[t], i) + (1 - b2) * g * g;
      set((*a.moment1_out)[t], i, m);
      set((*a.moment2_out)[t], i, v);
      if (a.amsgrad) {
        v = std::max(v, get(a.moment2_max[t], i));
        set((*a.moment2_max_out)[t], i, v);
      }
      if (decoupled) p *= 1 - lr * a.weight_decay;
      const double m_hat = m / (1 - std::pow(b1, step));
      const double v_hat = v / (1 - std::pow(b2, step));
      set((*a.params_out)[t], i, p - lr * m_hat / (std::sqrt(v_hat) + a.epsilon));
    }
  }
}

}  // namespace

template <typename T>
void fused_adam_reference(const KernelContext&, const FusedAdamArgs& a) {
  adam_reference(a, false);
}
SKIFF_INSTANTIATE_KERNEL(fused_adam, reference)

template <typename T>
void fused_adamw_reference(const KernelContext&, const FusedAdamwArgs& a) {
  adam_reference(a, true);
}
SKIFF_INSTANTIATE_KERNEL(fused_adamw, reference)

}  // namespace skiff::ops
