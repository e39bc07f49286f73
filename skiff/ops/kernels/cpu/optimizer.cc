// Fused multi-tensor optimizer kernels. The parameters of one call are cut into chunks of
// kChunk elements and the chunks (of all tensors together) are split across threads, so one
// parallel region serves a whole model whether it has a few large or many small tensors. Each
// element is read and written once: the update of parameter, moments and gradient reads is a
// single fused loop compiled per ISA (run_best_isa), computed in float32 (float64 for float64
// parameters); moments are float32, or float64 where a float64 parameter keeps float64 state.
// Inputs are read and outputs written through separate pointers: the generated in-place code
// hands the inputs' own buffers as outputs, or contiguous temporaries it copies back.
#include "skiff/ops/generated/kernels/optimizer.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "skiff/base/str.h"
#include "skiff/ops/kernel.h"
#include "skiff/ops/kernels/cpu/loops.h"

namespace skiff::ops {
namespace {

constexpr int64_t kChunk = 8192;

struct Chunk {
  size_t tensor;
  int64_t begin, end;
};

std::vector<Chunk> chunks_of(const std::vector<DenseTensor>& params) {
  std::vector<Chunk> out;
  for (size_t t = 0; t < params.size(); ++t) {
    const int64_t n = params[t].numel();
    for (int64_t b = 0; b < n; b += kChunk) out.push_back({t, b, std::min(n, b + kChunk)});
  }
  return out;
}

/// Runs body(chunk) for every chunk, across threads only when the parameters hold more than
/// kParallelGrain elements in all (many small tensors must not start a parallel region).
template <typename Body>
void for_chunks(const std::vector<DenseTensor>& params, const Body& body) {
  const std::vector<Chunk> chunks = chunks_of(params);
  int64_t total = 0;
  for (const auto& p : params) total += p.numel();
  const int64_t n = static_cast<int64_t>(chunks.size());
  parallel_for(0, n, total > kParallelGrain ? 1 : n, [&](int64_t b, int64_t e) {
    for (int64_t c = b; c < e; ++c) body(chunks[c]);
  });
}

std::vector<DenseTensor> contiguous_all(const std::vector<DenseTensor>& ts) {
  std::vector<DenseTensor> out;
  out.reserve(ts.size());
  for (const auto& t : ts) out.push_back(t.contiguous());
  return out;
}

double scalar_value(const DenseTensor& t) {
  return t.dtype() == DType::kFloat64 ? *static_cast<const double*>(t.raw_data())
                                      : *static_cast<const float*>(t.raw_data());
}

/// Calls f(std::true_type{}) or f(std::false_type{}): a loop specialized on a run-time flag.
template <typename F>
void with_flag(bool flag, const F& f) {
  if (flag) {
    f(std::true_type{});
  } else {
    f(std::false_type{});
  }
}

/// Calls f(S{}) with S the storage type of optimizer state: float, or double for the float64
/// state a float64 parameter may keep (optimizer_meta allows both).
template <typename F>
void with_state_type(DType state, const F& f) {
  if (state == DType::kFloat64) {
    f(double{});
  } else {
    f(float{});
  }
}

/// Every state list of one parameter keeps one dtype (the loops read them through one type).
void check_same_state(const char* op, const std::vector<DenseTensor>& first,
                      std::initializer_list<const std::vector<DenseTensor>*> others) {
  for (const auto* other : others) {
    for (size_t t = 0; t < other->size() && t < first.size(); ++t) {
      SKIFF_ENFORCE((*other)[t].dtype() == first[t].dtype(), kTypeError, op,
                    str("state[", t, "]"), str(first[t].dtype(), " (as moment1[", t, "])"),
                    (*other)[t].dtype());
    }
  }
}

template <typename T>
T* ptr(const DenseTensor& t) {
  return static_cast<T*>(t.raw_data());
}

}  // namespace

template <typename T>
void fused_sgd_cpu(const KernelContext&, const FusedSgdArgs& a) {
  const auto params = contiguous_all(a.params);
  const auto grads = contiguous_all(a.grads);
  using C = compute_t<T>;
  const C lr = static_cast<C>(scalar_value(a.learning_rate));
  const C wd = static_cast<C>(a.weight_decay);
  for_chunks(a.params, [&](const Chunk& c) {
    const T* p = ptr<T>(params[c.tensor]);
    const T* g = ptr<T>(grads[c.tensor]);
    T* po = ptr<T>((*a.params_out)[c.tensor]);
    cpu::run_best_isa([&] {
      for (int64_t i = c.begin; i < c.end; ++i) {
        const C pv = cpu::load(p[i]);
        po[i] = cpu::store<T>(pv - lr * (cpu::load(g[i]) + wd * pv));
      }
    });
  });
}
SKIFF_INSTANTIATE_KERNEL(fused_sgd, cpu)

template <typename T>
void fused_momentum_cpu(const KernelContext&, const FusedMomentumArgs& a) {
  const auto params = contiguous_all(a.params);
  const auto velocity = contiguous_all(a.velocity);
  const auto grads = contiguous_all(a.grads);
  using C = compute_t<T>;
  const C lr = static_cast<C>(scalar_value(a.learning_rate));
  const C mu = static_cast<C>(a.mu), wd = static_cast<C>(a.weight_decay);
  const bool nesterov = a.use_nesterov;
  for_chunks(a.params, [&](const Chunk& c) {
    with_state_type(velocity[c.tensor].dtype(), [&](auto state_tag) {
    using S = decltype(state_tag);
    const T* p = ptr<T>(params[c.tensor]);
    const T* g = ptr<T>(grads[c.tensor]);
    const S* v = ptr<S>(velocity[c.tensor]);
    T* po = ptr<T>((*a.params_out)[c.tensor]);
    S* vo = ptr<S>((*a.velocity_out)[c.tensor]);
    with_flag(nesterov, [&](auto nest) {
      cpu::run_best_isa([&] {
        for (int64_t i = c.begin; i < c.end; ++i) {
          const C pv = cpu::load(p[i]);
          const C gv = cpu::load(g[i]) + wd * pv;
          const C vv = mu * static_cast<C>(v[i]) + gv;
          vo[i] = static_cast<S>(vv);
          po[i] = cpu::store<T>(pv - lr * (nest ? gv + mu * vv : vv));
        }
      });
    });
    });
  });
}
SKIFF_INSTANTIATE_KERNEL(fused_momentum, cpu)

namespace {

/// The Adam family: `decoupled` selects AdamW's decay (param *= 1 - lr * wd) over Adam's L2
/// term (grad += wd * param).
template <typename T, typename Args>
void adam_update(const char* op, const Args& a, bool decoupled) {
  const auto params = contiguous_all(a.params);
  const auto grads = contiguous_all(a.grads);
  const auto moment1 = contiguous_all(a.moment1);
  const auto moment2 = contiguous_all(a.moment2);
  const auto moment2_max = contiguous_all(a.moment2_max);
  using C = compute_t<T>;
  const double lr = scalar_value(a.learning_rate);
  const double step = scalar_value(a.step);
  SKIFF_ENFORCE(step >= 1, kInvalidArgument, op, "step", "a step number >= 1", step);
  const C b1 = static_cast<C>(a.beta1), b2 = static_cast<C>(a.beta2);
  const C eps = static_cast<C>(a.epsilon);
  const C step_size = static_cast<C>(lr / (1.0 - std::pow(static_cast<double>(a.beta1), step)));
  const C inv_sqrt_bc2 =
      static_cast<C>(1.0 / std::sqrt(1.0 - std::pow(static_cast<double>(a.beta2), step)));
  const C l2 = decoupled ? C(0) : static_cast<C>(a.weight_decay);
  const C decay = decoupled ? static_cast<C>(1.0 - lr * a.weight_decay) : C(1);
  const bool amsgrad = a.amsgrad;
  check_same_state(op, moment1, {&moment2, &moment2_max});
  for_chunks(a.params, [&](const Chunk& c) {
    with_state_type(moment1[c.tensor].dtype(), [&](auto state_tag) {
    using S = decltype(state_tag);
    const T* p = ptr<T>(params[c.tensor]);
    const T* g = ptr<T>(grads[c.tensor]);
    const S* m1 = ptr<S>(moment1[c.tensor]);
    const S* m2 = ptr<S>(moment2[c.tensor]);
    const S* m2max = amsgrad ? ptr<S>(moment2_max[c.tensor]) : nullptr;
    T* po = ptr<T>((*a.params_out)[c.tensor]);
    S* m1o = ptr<S>((*a.moment1_out)[c.tensor]);
    S* m2o = ptr<S>((*a.moment2_out)[c.tensor]);
    S* m2maxo = amsgrad ? ptr<S>((*a.moment2_max_out)[c.tensor]) : nullptr;
    with_flag(amsgrad, [&](auto ams) {
      cpu::run_best_isa([&] {
      // Element i is read before it is written and nothing else: outputs may be the inputs
      // (in-place updates), which is no loop-carried dependency.
#pragma GCC ivdep
        for (int64_t i = c.begin; i < c.end; ++i) {
          const C pv = cpu::load(p[i]);
          const C gv = cpu::load(g[i]) + l2 * pv;
          const C m = b1 * static_cast<C>(m1[i]) + (C(1) - b1) * gv;
          C v = b2 * static_cast<C>(m2[i]) + (C(1) - b2) * gv * gv;
          m1o[i] = static_cast<S>(m);
          m2o[i] = static_cast<S>(v);
          if constexpr (decltype(ams)::value) {
            v = std::max(v, static_cast<C>(m2max[i]));
            m2maxo[i] = static_cast<S>(v);
          }
          po[i] = cpu::store<T>(pv * decay - step_size * m / (std::sqrt(v) * inv_sqrt_bc2 + eps));
        }
      });
    });
    });
  });
}

}  // namespace

template <typename T>
void fused_adam_cpu(const KernelContext&, const FusedAdamArgs& a) {
  adam_update<T>("fused_adam_", a, false);
}
SKIFF_INSTANTIATE_KERNEL(fused_adam, cpu)

template <typename T>
void fused_adamw_cpu(const KernelContext&, const FusedAdamwArgs& a) {
  adam_update<T>("fused_adamw_", a, true);
}
SKIFF_INSTANTIATE_KERNEL(fused_adamw, cpu)

}  // namespace skiff::ops
