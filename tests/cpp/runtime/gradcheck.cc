#include "gradcheck.h"

#include <cmath>
#include <random>

#include "op_test_util.h"
#include "skiff/ops/generated/api.h"
#include "skiff/runtime/eager/autograd_meta.h"
#include "skiff/runtime/eager/engine.h"
#include "skiff/runtime/eager/grad_mode.h"

namespace skiff::testing {

Tensor tensor64(const Dims& dims, const std::vector<double>& v, bool requires_grad) {
  Tensor t(make_tensor(dims, DType::kFloat64, v));
  if (requires_grad) autograd::set_stop_gradient(t, false);
  return t;
}

std::vector<double> values(const Tensor& t) { return to_doubles(t.dense()); }

namespace {

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

std::vector<Tensor> float_outputs(const std::vector<Tensor>& outs) {
  std::vector<Tensor> r;
  for (const Tensor& t : outs) {
    if (t.defined() && is_floating(t.dtype())) r.push_back(t);
  }
  return r;
}

// Random cotangents, one per float output.
std::vector<Tensor> cotangents(const std::vector<Tensor>& outs, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Tensor> r;
  for (const Tensor& o : outs) {
    if (!o.defined()) {  // an unused gradient (allow_unused): nothing to weigh
      r.emplace_back();
      continue;
    }
    std::vector<double> v(o.numel());
    for (double& x : v) x = u(rng);
    r.push_back(tensor64(o.dims(), v));
  }
  return r;
}

std::vector<size_t> checked(const std::vector<Tensor>& inputs) {
  std::vector<size_t> idx;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (autograd::requires_grad(inputs[i])) idx.push_back(i);
  }
  return idx;
}

// Compares analytic gradients with central differences of `scalar_fn` in each checked input.
std::string compare_with_numeric(const std::function<double(const std::vector<Tensor>&)>& f,
                                 const std::vector<Tensor>& inputs,
                                 const std::vector<Tensor>& analytic, const char* what,
                                 const GradcheckOptions& o) {
  const auto idx = checked(inputs);
  for (size_t k = 0; k < idx.size(); ++k) {
    const size_t i = idx[k];
    const std::vector<double> base = values(inputs[i]);
    const std::vector<double> got =
        analytic[k].defined() ? values(analytic[k]) : std::vector<double>(base.size(), 0.0);
    for (size_t e = 0; e < base.size(); ++e) {
      std::vector<Tensor> plus = inputs, minus = inputs;
      std::vector<double> vp = base, vm = base;
      vp[e] += o.eps;
      vm[e] -= o.eps;
      plus[i] = tensor64(inputs[i].dims(), vp);
      minus[i] = tensor64(inputs[i].dims(), vm);
      const double numeric = (f(plus) - f(minus)) / (2 * o.eps);
      if (std::abs(numeric - got[e]) > o.atol + o.rtol * std::abs(numeric)) {
        return str(what, ": input ", i, " element ", e, ": analytic ", got[e], ", numeric ",
                   numeric);
      }
    }
  }
  return {};
}

}  // namespace

Tensor ops_cast64(const Tensor& t) {
  return t.dtype() == DType::kFloat64 ? t : skiff::cast(t, DType::kFloat64);
}

std::string gradcheck(const TensorFn& fn, const std::vector<Tensor>& inputs, GradcheckOptions o) {
  const auto outs = float_outputs(fn(inputs));
  if (outs.empty()) return "function has no floating point outputs";
  const auto vs = cotangents(outs, 7);
  std::vector<Tensor> wrt;
  for (size_t i : checked(inputs)) wrt.push_back(inputs[i]);
  std::vector<Tensor> diff_outs, diff_vs;
  for (size_t i = 0; i < outs.size(); ++i) {
    if (autograd::requires_grad(outs[i])) {
      diff_outs.push_back(outs[i]);
      diff_vs.push_back(vs[i]);
    }
  }
  if (diff_outs.empty()) return "no output requires grad";
  const auto analytic = autograd::grad(diff_outs, wrt, diff_vs, {.allow_unused = true});
  return compare_with_numeric(
      [&](const std::vector<Tensor>& in) {
        // Only the outputs that carry gradients contribute.
        autograd::NoGradGuard no_grad;
        auto o2 = float_outputs(fn(in));
        double s = 0;
        for (size_t j = 0, k = 0; j < o2.size(); ++j) {
          if (!autograd::requires_grad(outs[j])) continue;
          s += dot(values(ops_cast64(o2[j])), values(diff_vs[k++]));
        }
        return s;
      },
      inputs, analytic, "gradient", o);
}

std::string gradgradcheck(const TensorFn& fn, const std::vector<Tensor>& inputs,
                          GradcheckOptions o) {
  // h(x) = <u, vjp_f(x, v)> for fixed v, u; its gradient is a second derivative of f.
  const auto outs0 = float_outputs(fn(inputs));
  const auto vs = cotangents(outs0, 11);
  auto vjp = [&](const std::vector<Tensor>& in, bool create_graph) {
    std::vector<Tensor> wrt;
    for (size_t i : checked(in)) wrt.push_back(in[i]);
    std::vector<Tensor> diff_outs, diff_vs;
    auto outs = float_outputs(fn(in));
    for (size_t i = 0; i < outs.size(); ++i) {
      if (autograd::requires_grad(outs[i])) {
        diff_outs.push_back(outs[i]);
        diff_vs.push_back(vs[i]);
      }
    }
    return autograd::grad(diff_outs, wrt, diff_vs,
                          {.create_graph = create_graph, .allow_unused = true});
  };
  const auto g = vjp(inputs, true);
  std::vector<Tensor> g_defined, us;
  const auto u_all = cotangents(g, 13);
  for (size_t k = 0; k < g.size(); ++k) {
    if (g[k].defined() && autograd::requires_grad(g[k])) {
      g_defined.push_back(g[k]);
      us.push_back(u_all[k]);
    }
  }
  std::vector<Tensor> wrt;
  for (size_t i : checked(inputs)) wrt.push_back(inputs[i]);
  std::vector<Tensor> analytic(wrt.size());
  if (!g_defined.empty()) {
    analytic = autograd::grad(g_defined, wrt, us, {.allow_unused = true});
  }
  return compare_with_numeric(
      [&](const std::vector<Tensor>& in) {
        std::vector<Tensor> in_req = in;
        const auto idx = checked(inputs);
        for (size_t i : idx) autograd::set_stop_gradient(in_req[i], false);
        const auto gk = vjp(in_req, false);
        double s = 0;
        for (size_t k = 0, j = 0; k < gk.size(); ++k) {
          if (!(g[k].defined() && autograd::requires_grad(g[k]))) continue;
          s += dot(values(gk[k]), values(us[j++]));
        }
        return s;
      },
      inputs, analytic, "second derivative", o);
}

}  // namespace skiff::testing
